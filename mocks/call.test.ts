import { describe, expect, it } from 'vitest';
import { targetOf, targetText } from './call.js';

describe('targetOf', () => {
  it('splits an origin-form target into path, query string and parsed query', () => {
    const target = targetOf('/v1/pets?limit=2&status=sold');
    expect([target.pathname, target.search]).toEqual(['/v1/pets', '?limit=2&status=sold']);
    expect(target.searchParams.getAll('limit')).toEqual(['2']);
  });
  it('treats a bare or trailing ? as no query, as URL does', () => {
    expect(targetOf('/v1/pets?').search).toBe(new URL('http://x/v1/pets?').search);
    expect(targetOf('/v1/pets').search).toBe('');
  });
  it('keeps the path as sent, percent-encoding and dot segments included', () => {
    expect(targetOf('/v1/pets/%31').pathname).toBe('/v1/pets/%31');
    expect(targetOf('/v1/./pets').pathname).toBe('/v1/./pets');
  });
});

describe('targetText', () => {
  it('gives path and query as the journal shows them, from a target as sent or a URL alike', () => {
    for (const sent of ['/v1/pets?limit=2&status=sold', '/v1/pets', '/v1/pets?', '/v1/pets/%31?a=%20']) {
      const url = new URL(`http://x${sent}`);
      expect(targetText(targetOf(sent))).toBe(url.pathname + url.search);
      expect(targetText(url)).toBe(url.pathname + url.search);
    }
  });
});
