import { describe, expect, test } from 'vitest';
import { BRACED_KEY, createRedactor, shortestPart, swapCase } from './redaction.js';

const KEY = 'sk-Live_9f8E/7d6C+5b4A=';
const { request, response } = createRedactor(KEY);

/** `text` in UTF-16 (little- or big-endian) as Node reads its bytes as UTF-8: what the suite records. */
const utf16 = (text: string, order: 'le' | 'be') => {
  const bytes = Buffer.from(text, 'utf16le');
  return (order === 'le' ? bytes : bytes.swap16()).toString('utf8');
};

describe('what came back shows each form of the key as a marker', () => {
  test.each([
    ['the key', `Bearer ${KEY}`, 'Bearer $API_KEY'],
    ['the key, a letter after it', `${KEY}x`, `${BRACED_KEY}x`],
    ['the key twice', `${KEY}${KEY}`, '$API_KEY$API_KEY'],
    ['lower-cased', `bearer ${KEY.toLowerCase()}`, 'bearer [API_KEY, lower-cased]'],
    ['upper-cased', KEY.toUpperCase(), '[API_KEY, upper-cased]'],
    ['case swapped', swapCase(KEY), '[API_KEY, case swapped]'],
    ['case changed', `sK${KEY.slice(2)}`, '[API_KEY, case changed]'],
    ['percent-encoded', `?t=${encodeURIComponent(KEY)}&x=1`, '?t=[API_KEY, encoded]&x=1'],
    ['percent-encoded, lower-case hex', encodeURIComponent(KEY).toLowerCase(), '[API_KEY, encoded]'],
    ['JSON-escaped', `"\\u0073k-Live_9f8E\\/7d6C+5b4A="`, '"[API_KEY, encoded]"'],
    ['HTML-escaped', 'sk&#45;Live_9f8E&#x2F;7d6C+5b4A&#61;', '[API_KEY, encoded]'],
    ['in base64', Buffer.from(KEY).toString('base64'), /^\[API_KEY, base64\].{0,4}$/],
    [
      'in base64, one byte in',
      Buffer.from(`:${KEY}`).toString('base64'),
      /^.{0,3}\[API_KEY, base64\].{0,4}$/,
    ],
    [
      'in base64url, two bytes in',
      Buffer.from(`u:${KEY}`).toString('base64url'),
      /^.{0,4}\[API_KEY, base64\].{0,4}$/,
    ],
    [
      'every byte percent-encoded',
      [...Buffer.from(KEY)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join(''),
      '[API_KEY, encoded]',
    ],
    ['in hex', `x-echo: ${Buffer.from(KEY).toString('hex')}`, 'x-echo: [API_KEY, hex]'],
    ['in upper-case hex', Buffer.from(KEY).toString('hex').toUpperCase(), '[API_KEY, hex]'],
    ['upper-cased, in hex', Buffer.from(KEY.toUpperCase()).toString('hex'), '[API_KEY, hex]'],
    ['lower-cased, in hex', Buffer.from(KEY.toLowerCase()).toString('hex'), '[API_KEY, hex]'],
    ['case swapped, in hex', Buffer.from(swapCase(KEY)).toString('hex'), '[API_KEY, hex]'],
    [
      'in hex, inside a longer hex string',
      `00ff${Buffer.from(`Bearer ${KEY}`).toString('hex')}`,
      `00ff${Buffer.from('Bearer ').toString('hex')}[API_KEY, hex]`,
    ],
    // A body in UTF-16 or UTF-32 (JSON's encodings before RFC 8259), read as UTF-8: a NUL beside each
    // ASCII character; in the reports and the HAR, `s\u0000k\u0000-…`, the key for anyone to read.
    ['in UTF-16LE', utf16(`Bearer ${KEY}`, 'le'), `${utf16('Bearer ', 'le')}[API_KEY, encoded]\u0000`],
    ['in UTF-16BE', utf16(`${KEY}!`, 'be'), '\u0000[API_KEY, encoded]\u0000!'],
    [
      'in UTF-32LE',
      [...KEY].map((c) => `${c}\u0000\u0000\u0000`).join(''),
      '[API_KEY, encoded]\u0000\u0000\u0000',
    ],
    [
      'JSON-escaped, a \\u0000 after each character',
      [...KEY].map((c) => `${c}\\u0000`).join(''),
      '[API_KEY, encoded]\\u0000',
    ],
    ['its first half', `key ${KEY.slice(0, 12)}...`, 'key [part of API_KEY]...'],
    ['its last half', `...${KEY.slice(-12)}`, '...[part of API_KEY]'],
  ])('%s', (_what, text, shown) => {
    const hidden = response(text);
    if (typeof shown === 'string') expect(hidden).toBe(shown);
    else expect(hidden).toMatch(shown);
  });

  test('a key of 16 characters in hex, as a server echoes it in a header', () => {
    const key = 'secret-key-12345';
    expect(Buffer.from(key).toString('hex')).toBe('7365637265742d6b65792d3132333435');
    expect(createRedactor(key).response('x-key: 7365637265742d6b65792d3132333435')).toBe(
      'x-key: [API_KEY, hex]',
    );
    expect(createRedactor(key).response('7365637265742D6B65792D3132333435')).toBe('[API_KEY, hex]');
  });

  test('a part shorter than half the key is shown: a prefix every key has says nothing', () => {
    expect(response('keys start with sk-Live_')).toBe('keys start with sk-Live_');
    expect(shortestPart(KEY.length)).toBe(12);
  });

  test('a JSON body stays JSON', () => {
    const body = JSON.stringify({ message: `no key ${KEY}, nor ${KEY.toUpperCase()}`, code: 'x' });
    expect(JSON.parse(response(body))).toEqual({
      message: 'no key $API_KEY, nor [API_KEY, upper-cased]',
      code: 'x',
    });
  });

  test('a short key is hidden where it stands alone, not inside a longer word', () => {
    const short = createRedactor('k1');
    expect(short.response('Bearer k1 and "K1", not k12 nor petkit1')).toBe(
      'Bearer $API_KEY and "[API_KEY, upper-cased]", not k12 nor petkit1',
    );
  });

  test('a two-megabyte body without the key comes back unchanged, escapes and all', () => {
    const body = `[${Array.from({ length: 16_000 }, (_, i) => `{"id":${i},"name":"${'x'.repeat(100)}%41\\u0042"}`).join(',')}]`;
    expect(body.length).toBeGreaterThan(2_000_000);
    expect(response(body)).toBe(body);
  });
});

test('what the suite sent shows each form it could send as a sh expansion of $API_KEY', () => {
  expect(request(`Bearer ${KEY}`)).toBe('Bearer $API_KEY');
  expect(request(`Bearer ${swapCase(KEY)}`)).toBe(
    'Bearer $(printf %s "$API_KEY" | LC_ALL=C tr a-zA-Z A-Za-z)',
  );
  expect(request(`Bearer ${KEY.slice(0, -1)}`)).toBe(
    `Bearer $(printf %s "$API_KEY" | cut -c 1-${KEY.length - 1})`,
  );
  // What sh cannot rebuild from $API_KEY is shown as a marker: never the key.
  expect(request(encodeURIComponent(KEY))).toBe('[API_KEY, encoded]');
});
