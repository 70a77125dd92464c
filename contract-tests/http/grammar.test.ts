import { describe, expect, it } from 'vitest';
import { hasBearerChallenge, isImfFixdate, parseLinks, parseMediaType, parseSfDate } from './grammar.js';

describe('isImfFixdate (RFC 9110 §5.6.7)', () => {
  it.each(['Sun, 06 Nov 1994 08:49:37 GMT', 'Thu, 05 Dec 2030 00:00:00 GMT', new Date(0).toUTCString()])(
    'accepts %s',
    (v) => {
      expect(isImfFixdate(v)).toBe(true);
    },
  );
  it.each([
    '2030-12-05T00:00:00Z',
    'Sunday, 06-Nov-94 08:49:37 GMT',
    'Sun Nov  6 08:49:37 1994',
    'Mon, 06 Nov 1994 08:49:37 GMT',
    'Thu, 31 Feb 2030 00:00:00 GMT',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 24:00:00 GMT',
  ])('refuses %s', (v) => {
    expect(isImfFixdate(v)).toBe(false);
  });
});

describe('parseSfDate (RFC 9651 §3.3.7)', () => {
  it('reads @ and an integer, with parameters', () => {
    expect(parseSfDate('@1735689600')).toBe(1735689600);
    expect(parseSfDate('@-1')).toBe(-1);
    expect(parseSfDate('@1735689600;x=1')).toBe(1735689600);
  });
  it.each(['true', '?1', '1735689600', '@1.5', '@', 'Wed, 01 Jan 2025 00:00:00 GMT', '@1234567890123456'])(
    'refuses %s',
    (v) => {
      expect(parseSfDate(v)).toBeUndefined();
    },
  );
});

describe('parseMediaType (RFC 9110 §8.3.1)', () => {
  it('reads the essence in lower case and the parameters', () => {
    const m = parseMediaType('Application/JSON ; charset=UTF-8');
    expect(m?.essence).toBe('application/json');
    expect(m?.parameters.get('charset')).toBe('UTF-8');
  });
  it.each(['json', 'application/', 'a/b/c', 'application/json; =x', ''])('refuses %j', (v) => {
    expect(parseMediaType(v)).toBeUndefined();
  });
});

describe('parseLinks (RFC 8288 §3)', () => {
  it('reads targets and rels', () => {
    expect(parseLinks('</v1/pets>; rel="successor-version"')).toEqual([
      { target: '/v1/pets', rels: ['successor-version'] },
    ]);
    expect(parseLinks('<a>; rel=next, <b>; rel="prev start"')).toEqual([
      { target: 'a', rels: ['next'] },
      { target: 'b', rels: ['prev', 'start'] },
    ]);
  });
  it.each(['/v1/pets; rel=successor-version', '<a> rel=next', '<a>; rel="x', ''])('refuses %j', (v) => {
    expect(parseLinks(v)).toBeUndefined();
  });
});

it('a Bearer challenge among several, not one inside a quoted value', () => {
  expect(hasBearerChallenge('Bearer realm="pets"')).toBe(true);
  expect(hasBearerChallenge('bearer')).toBe(true);
  expect(hasBearerChallenge('Basic realm="legacy", Bearer realm="pets"')).toBe(true);
  expect(hasBearerChallenge('Basic realm="legacy, Bearer x"')).toBe(false);
  expect(hasBearerChallenge('Basic realm="a\\"b", Bearer')).toBe(true);
  expect(hasBearerChallenge('Basic realm="x", bearer=1')).toBe(false);
  expect(hasBearerChallenge('Bearerx realm="x"')).toBe(false);
});
