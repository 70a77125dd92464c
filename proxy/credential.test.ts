import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_HIDDEN,
  createKeyBook,
  exchangeHider,
  replayAuthorization,
  replayOf,
  STAND_IN,
  sentCredentials,
  shellWord,
} from './credential.js';

const KEY = 'sk_live_Abc123xyz';

/** What /bin/sh (dash here: POSIX, not bash) makes of a word, with API_KEY set as the user sets it. */
const expand = (word: string, apiKey = KEY): string =>
  execFileSync('/bin/sh', ['-c', `printf %s ${word}`], { env: { API_KEY: apiKey }, encoding: 'utf8' });

/** Every run of four characters of the key, either case: none may be written in a line. */
const runsOf = (key: string) =>
  Array.from({ length: key.length - 3 }, (_, i) => key.slice(i, i + 4).toLowerCase());

const told = () => createKeyBook(KEY);

describe('replayAuthorization', () => {
  it.each([
    ['the key', `Bearer ${KEY}`, 200],
    ['the key, in upper case', `Bearer ${KEY.toUpperCase()}`, 401],
    ['the key, in lower case', `Bearer ${KEY.toLowerCase()}`, 401],
    ['the key, its case changed in one place', 'Bearer sk_live_abc123xyz', 401],
    ['the key, its case changed in two ways', 'Bearer SK_live_abc123XYZ', 401],
    ['the key, cut at the end', `Bearer ${KEY.slice(0, -1)}`, 401],
    ['the key, cut by three at the end', `Bearer ${KEY.slice(0, -3)}`, 401],
    ['the key, cut at the start', `Bearer ${KEY.slice(2)}`, 401],
    ['the key, cut at both ends and upper-cased', `Bearer ${KEY.slice(3, -2).toUpperCase()}`, 401],
    ['the key, extended', `Bearer ${KEY}x`, 401],
    ['the key, extended in front, with shell characters', `Bearer "$\`!\\'${KEY}`, 401],
    ['the key twice', `Bearer ${KEY}${KEY}`, 401],
    ['the key without a scheme', KEY, 401],
    ['the key under another scheme', `basic ${KEY}`, 401],
  ])('writes %s from $API_KEY, in POSIX sh, and reproduces it exactly', (_, sent, status) => {
    const { word } = replayAuthorization(sent, status, told());
    expect(expand(word)).toBe(`Authorization: ${sent}`);
    for (const run of runsOf(KEY)) expect(word.toLowerCase()).not.toContain(run);
    expect(word).not.toContain('~~'); // bash only
  });

  it('shows a refused credential that is not the key as sent, once told the key', () => {
    const { word, note } = replayAuthorization("Bearer wrong-key-'1'", 401, told());
    expect(word).toBe(`'Authorization: Bearer wrong-key-'\\''1'\\'''`);
    expect(expand(word)).toBe("Authorization: Bearer wrong-key-'1'");
    expect(note).toBeUndefined();
  });

  it('writes a stand-in for a refused credential when it cannot tell whether it is derived from a key', () => {
    const { word, note } = replayAuthorization('Bearer sk_prod_0123456789', 403, createKeyBook(undefined));
    expect(expand(word)).toBe(`Authorization: Bearer ${STAND_IN}`);
    expect(word).not.toContain('0123456789');
    expect(note).toContain('PETKIT_API_KEY');
  });

  it('writes $API_KEY for a credential it does not know and the upstream did not refuse', () => {
    expect(replayAuthorization('Bearer something', 500, told()).word).toBe(
      '"Authorization: Bearer $API_KEY"',
    );
    expect(replayAuthorization('Bearer something', 400, createKeyBook(undefined)).word).toBe(
      '"Authorization: Bearer $API_KEY"',
    );
  });

  it('learns a key from a 2xx answer and writes what is derived from it from $API_KEY', () => {
    const book = createKeyBook(undefined);
    book.learn('Bearer learnt-key-42', 404);
    expect(replayAuthorization('Bearer learnt-key-42x', 401, book).word).toContain(STAND_IN);
    book.learn('Bearer learnt-key-42', 200);
    const { word, note } = replayAuthorization('Bearer learnt-key-42x', 401, book);
    expect(word).toBe(`"Authorization: Bearer \${API_KEY}x"`);
    expect(expand(word, 'learnt-key-42')).toBe('Authorization: Bearer learnt-key-42x');
    expect(note).toBeUndefined();
  });

  it('shows a refused scheme without a token as sent, since there is nothing secret in it', () => {
    expect(replayAuthorization('Bearer', 401, createKeyBook(undefined)).word).toBe(`'Authorization: Bearer'`);
  });
});

describe('sentCredentials', () => {
  it('takes the token of every Authorization line, and a Basic password decoded', () => {
    const basic = Buffer.from('ada:hunter2-Kv8n').toString('base64');
    expect(
      sentCredentials([
        'Authorization',
        'Bearer first-token',
        'accept',
        'x',
        'authorization',
        'second-token',
        'Proxy-Authorization',
        `Basic ${basic}`,
        'Authorization',
        'Bearer',
      ]),
    ).toEqual(['first-token', 'second-token', basic, 'ada:hunter2-Kv8n', 'hunter2-Kv8n']);
  });
});

describe('exchangeHider', () => {
  it('hides each run of a credential sent, in any case, as one stand-in, and a known key as $API_KEY', () => {
    const book = createKeyBook(KEY);
    const hide = exchangeHider(book, ['sk_prod_0123456789']);
    expect(hide('key sk_prod_0123456789 (SK_PROD_0123...) sk_PROD_0123456789 is not valid')).toBe(
      `key ${CREDENTIAL_HIDDEN} (${CREDENTIAL_HIDDEN}...) ${CREDENTIAL_HIDDEN} is not valid`,
    );
    expect(hide(`told ${KEY}`)).toBe('told $API_KEY');
  });

  it('hides a short credential only where it stands whole, and writes a key learnt since as $API_KEY', () => {
    const book = createKeyBook(undefined);
    const hide = exchangeHider(book, ['x1', 'learnt-key-42']);
    expect(hide('/v1/pets?k=x1 "X1" x12')).toBe(`/v1/pets?k=${CREDENTIAL_HIDDEN} "${CREDENTIAL_HIDDEN}" x12`);
    expect(hide('learnt-key-42')).toBe(CREDENTIAL_HIDDEN);
    book.learn('Bearer learnt-key-42', 200);
    expect(hide('learnt-key-42')).toBe('$API_KEY');
  });

  it("leaves the API's own words that a credential sent holds: pets stays in /v1/pets", () => {
    // Runs of four hid the `pets` of every path while the app sent this refused credential.
    const hide = exchangeHider(createKeyBook(undefined), ['wrong-pets-key']);
    expect(hide('GET /v1/pets/1 401')).toBe('GET /v1/pets/1 401');
    expect(hide('key wrong-pets-key (WRONG-PE...) is not valid')).toBe(
      `key ${CREDENTIAL_HIDDEN} (${CREDENTIAL_HIDDEN}...) is not valid`,
    );
  });
});

describe('replayOf', () => {
  it('writes the credential sent the same way in the URL as in the Authorization word', () => {
    const url = 'http://x/v1/pets?token=sk_prod_0123456789';
    const refused = replayOf('Bearer sk_prod_0123456789', 401, createKeyBook(undefined));
    expect(refused.text(url)).toBe(`http://x/v1/pets?token=${STAND_IN}`);
    const other = replayOf('Bearer sk_prod_0123456789', 500, createKeyBook(undefined));
    expect(other.keys.keys()).toContain('sk_prod_0123456789');
    expect(replayOf('Bearer sk_prod_0123456789', 401, told()).text(url)).toBe(url);
  });

  it('replays the path as sent beside a refused credential that holds a word of it', () => {
    const refused = replayOf('Bearer wrong-pets-key', 401, createKeyBook(undefined));
    expect(refused.text('http://x/v1/pets?k=wrong-pets-key')).toBe(`http://x/v1/pets?k=${STAND_IN}`);
  });
});

describe('exchangeHider, before an upstream that echoes a credential encoded', () => {
  const SENT = 'sk_prod_0123456789';
  const encodings: [string, (text: string) => string][] = [
    ['percent-encoded', (text) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
    ['percent-encoded where a query needs it', (text) => text.replaceAll('_', '%5F')],
    ['JSON-escaped', (text) => `\\u${text.charCodeAt(0).toString(16).padStart(4, '0')}${text.slice(1)}`],
    ['HTML-escaped', (text) => [...text].map((c) => `&#${c.charCodeAt(0)};`).join('')],
    ['in base64', (text) => Buffer.from(text).toString('base64')],
    ['in base64, after another byte', (text) => Buffer.from(`:${text}`).toString('base64')],
  ];

  it.each(encodings)('hides a known key %s: as a marker, never its characters', (_, encode) => {
    const hide = exchangeHider(createKeyBook(KEY), []);
    const shown = hide(`{"message":"key ${encode(KEY)} is not valid"}`);
    expect(shown).toMatch(/^\{"message":"key .*(\$API_KEY|\[API_KEY, base64\]).* is not valid"\}$/);
    expect(shown).not.toContain(encode(KEY));
    expect(shown.toLowerCase()).not.toContain('abc123');
  });

  it.each(encodings)('hides a credential sent %s as <credential sent>', (_, encode) => {
    const hide = exchangeHider(createKeyBook(undefined), [SENT]);
    const shown = hide(`key ${encode(SENT)} is not valid`);
    expect(shown).toContain(CREDENTIAL_HIDDEN);
    expect(shown).not.toContain(encode(SENT));
    expect(shown).not.toContain('0123456789');
  });

  it('leaves a text whose escapes hold no credential as it came', () => {
    const hide = exchangeHider(createKeyBook(KEY), [SENT]);
    for (const text of ['/v1/pets?name=R%C3%A9x&x=%5F', '{"a":"\\u00e9\\\\"}', 'Tom &amp; Jerry &#38;'])
      expect(hide(text)).toBe(text);
  });
});

describe('the replay of a credential the upstream could decode', () => {
  it('gives curl a Basic credential that holds the key as -u user:password, made from $API_KEY', () => {
    const token = Buffer.from(`ada:${KEY}`).toString('base64');
    for (const status of [200, 401]) {
      const { word, flag } = replayAuthorization(`Basic ${token}`, status, told());
      expect(flag).toBe('-u');
      expect(expand(word)).toBe(`ada:${KEY}`);
      expect(word).not.toContain(token.slice(4, 16));
      for (const run of runsOf(KEY)) expect(word.toLowerCase()).not.toContain(run);
    }
  });

  it('writes a known key sent percent-encoded in the URL from $API_KEY, decoded', () => {
    const encoded = KEY.replaceAll('_', '%5F');
    const replay = replayOf(`Bearer ${KEY}`, 200, told());
    const word = shellWord(replay.text(`http://x/v1/pets?token=${encoded}`), replay.keys);
    expect(word).not.toContain(encoded);
    expect(expand(word)).toBe(`http://x/v1/pets?token=${KEY}`);
  });

  it('writes a refused credential sent percent-encoded in the URL as the stand-in', () => {
    const refused = replayOf('Bearer sk_prod_0123456789', 401, createKeyBook(undefined));
    expect(refused.text('http://x/v1/pets?token=sk%5Fprod%5F0123456789')).toBe(
      `http://x/v1/pets?token=${STAND_IN}`,
    );
  });
});
