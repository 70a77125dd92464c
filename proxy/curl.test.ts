import { describe, expect, it } from 'vitest';
import { createKeyBook } from './credential.js';
import { curlLine } from './curl.js';

const NONE = createKeyBook(undefined);

describe('curlLine', () => {
  it('replays the request with the credential word it is given, keeping only the headers that change the answer', () => {
    expect(
      curlLine(
        'POST',
        'https://api.example.test/v1/pets',
        {
          authorization: 'Bearer sk-live-secret',
          'content-type': 'application/json',
          prefer: 'code=429',
          accept: '*/*',
          cookie: 'session=secret',
        },
        `{"name":"O'Malley","categoryId":1}`,
        { word: '"Authorization: Bearer $API_KEY"' },
        NONE,
      ),
    ).toBe(
      `curl -i -X POST -H "Authorization: Bearer $API_KEY" -H 'content-type: application/json' -H 'prefer: code=429' --data-binary '{"name":"O'\\''Malley","categoryId":1}' 'https://api.example.test/v1/pets'`,
    );
  });
  it('sends no Authorization when the request had none', () => {
    expect(curlLine('GET', 'http://x/v1/pets', { accept: '*/*' }, '', undefined, NONE)).toBe(
      `curl -i 'http://x/v1/pets'`,
    );
  });
  it('ends with the notes of the credential and of a cut body', () => {
    const line = curlLine(
      'POST',
      'http://x/v1/pets',
      {},
      'x'.repeat(2500),
      {
        word: `'Authorization: Bearer stand-in'`,
        note: 'a stand-in',
      },
      NONE,
    );
    expect(line).toMatch(/ 'http:\/\/x\/v1\/pets' {2}# a stand-in; body cut at 2000 characters$/);
  });
  it('says when it cut a long body', () => {
    const line = curlLine('POST', 'http://x/v1/pets', {}, 'x'.repeat(2500), undefined, NONE);
    expect(line).toMatch(/ 'http:\/\/x\/v1\/pets' {2}# body cut at 2000 characters$/);
    expect(line).not.toContain('x'.repeat(2001));
  });
  it('writes a key it knows from $API_KEY wherever it stands: in the target, in the body', () => {
    const line = curlLine(
      'POST',
      'http://x/v1/pets?token=sk-Secret-1',
      {},
      '{"name":"SK-SECRET-1"}',
      undefined,
      createKeyBook('sk-Secret-1'),
    );
    expect(line.toLowerCase()).not.toContain('sk-secret-1');
    expect(line).toBe(
      `curl -i -X POST --data-binary "{\\"name\\":\\"$(printf %s "$API_KEY" | tr a-z A-Z)\\"}" "http://x/v1/pets?token=$API_KEY"`,
    );
  });
});
