import { describe, expect, it } from 'vitest';
import { CHECK_IDS } from './checks.js';
import { normalizeOptions } from './options.js';

const refusal = (baseUrl: string, apiKey = 'demo-free') => {
  try {
    normalizeOptions({ baseUrl, apiKey }, [], CHECK_IDS, ['listPets']);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('a base URL without its scheme', () => {
  it.each([
    ['127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['localhost:4010/v1', 'http://localhost:4010/v1'],
    ['localhost:4010/v1/', 'http://localhost:4010/v1'],
    ['localhost/v1', 'http://localhost/v1'],
    ['[::1]:4010/v1', 'http://[::1]:4010/v1'],
    ['//127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
    ['staging.example.com:8080/v1', 'http://staging.example.com:8080/v1'],
    ['staging.example.com:80/v1', 'http://staging.example.com/v1'],
  ])('%s: says the URL meant, %s', (given, meant) => {
    expect(refusal(given)).toBe(`The base URL "${given}" has no scheme: did you mean ${meant}?`);
  });

  it('suggests https:// for a host of elsewhere without a port, http:// besides', () => {
    expect(refusal('staging.example.com/v1')).toBe(
      'The base URL "staging.example.com/v1" has no scheme: did you mean https://staging.example.com/v1 (http:// for a server without TLS)?',
    );
    expect(refusal('staging.example.com:443/v1')).toBe(
      'The base URL "staging.example.com:443/v1" has no scheme: did you mean https://staging.example.com/v1 (http:// for a server without TLS)?',
    );
  });

  it('never quotes a user or password given without the scheme', () => {
    const message = refusal('me:s3cret@127.0.0.1:4010/v1');
    expect(message).toMatch(
      /has no scheme \(http:\/\/ or https:\/\/\), and must not carry a user or password/,
    );
    expect(message).not.toContain('s3cret');
  });

  it('keeps its other refusals: another scheme, no URL at all, a URL that is the key', () => {
    expect(refusal('ftp://127.0.0.1/v1')).toBe('The base URL must be http(s), got ftp:.');
    expect(refusal('file:/tmp/v1')).toBe('The base URL must be http(s), got file:.');
    expect(refusal('not a url')).toBe('The base URL "not a url" is not a URL.');
    expect(refusal('http://127.0.0.1:4010/v1')).toBe('accepted');
  });
});
