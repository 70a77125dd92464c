import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { toCurl } from '../exchange.js';
import { credentialSpellings, tierZeroNearMisses } from './credentials.js';

/** Keys of every shape the suite accepts (visible ASCII): short, one letter, digits only, with sh metacharacters. */
const KEYS = ['demo-free', 'a', 'ab', '12345678', 'sk_live_ABCdef123', `1|a$b"c'd\`e\\f!g*h?`, 'AAAA', 'xy'];

/** What /bin/sh makes of each shell form, with API_KEY set to the key. */
function expandAll(key: string, shells: readonly string[]): string[] {
  const script = `printf '%s\\0' ${shells.map((s) => `"${s}"`).join(' ')}`;
  const out = execFileSync('/bin/sh', ['-c', script], {
    env: { API_KEY: key, PATH: process.env.PATH ?? '' },
  });
  return out.toString('latin1').split('\0').slice(0, -1);
}

describe('credentialSpellings', () => {
  it.each(KEYS)('each shell form, run by /bin/sh with API_KEY=%j, gives the header that is sent', (key) => {
    const credentials = credentialSpellings(key);
    expect(
      expandAll(
        key,
        credentials.map((c) => c.shell),
      ),
    ).toEqual(credentials.map((c) => c.header(key)));
  });

  it.each(KEYS)(
    'the curl line of a request sent with each, run by /bin/sh, sends that header (key %j)',
    (key) => {
      const credentials = credentialSpellings(key);
      // curl stood in for by a function that prints the word after each -H.
      const lines = credentials.map((c) =>
        toCurl({ method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: { authorization: c.shell } }),
      );
      const script = `curl() { while [ $# -gt 0 ]; do [ "$1" = -H ] && printf '%s\\0' "$2"; shift; done; }\n${lines.join('\n')}`;
      const out = execFileSync('/bin/sh', ['-c', script], {
        env: { API_KEY: key, PATH: process.env.PATH ?? '' },
      });
      expect(out.toString('latin1').split('\0').slice(0, -1)).toEqual(
        credentials.map((c) => `authorization: ${c.header(key)}`),
      );
    },
  );

  it.each(KEYS)('no near-miss of %j is the key, under any spelling the contract accepts', (key) => {
    for (const c of credentialSpellings(key).filter((c) => !c.valid)) {
      const value = c.header(key);
      const accepted = /^bearer +(.*)$/i.exec(value)?.[1];
      expect(accepted, c.what).not.toBe(key);
    }
  });

  it.each(KEYS)('no shell form or description of %j holds the key', (key) => {
    if (key.length < 3) return; // a one- or two-character key is in every word
    for (const c of credentialSpellings(key)) {
      expect(c.shell.includes(key), c.shell).toBe(false);
      expect(c.what.includes(key), c.what).toBe(false);
    }
  });

  it('derives every class from a key with letters, and drops case flips for a key without', () => {
    const kinds = (key: string) => new Set(credentialSpellings(key).map((c) => c.kind));
    expect([...kinds('demo-free')].sort()).toEqual([
      'case',
      'edit',
      'extension',
      'prefix',
      'scheme',
      'whitespace',
    ]);
    expect(kinds('12345678').has('case')).toBe(false);
  });

  it('accepts the Bearer spellings RFC 9110 §11.4 allows: any case, 1*SP', () => {
    const valid = credentialSpellings('demo-free')
      .filter((c) => c.valid)
      .map((c) => c.header('K'));
    expect(valid).toEqual(['bearer K', 'BEARER K', 'bEaReR K', 'Bearer  K', 'Bearer   K']);
  });

  it('gives one tier-0 near-miss per class, each a distinct wrong key', () => {
    const zero = tierZeroNearMisses(credentialSpellings('demo-free'));
    expect(zero.map((c) => c.kind)).toEqual(['prefix', 'extension', 'case', 'edit', 'whitespace']);
    expect(new Set(zero.map((c) => c.header('demo-free'))).size).toBe(zero.length);
  });

  it("sends the key followed by a space and another word, which a server that reads the key up to the next space (split(' ')[1]) accepts", () => {
    const [, extension] = tierZeroNearMisses(credentialSpellings('demo-free'));
    expect(extension?.header('demo-free')).toBe('Bearer demo-free x');
    expect(extension?.valid).toBe(false);
    expect(extension?.kind).toBe('extension');
  });

  it('edits the first, middle and last positions', () => {
    const headers = credentialSpellings('abcdef').map((c) => c.header('abcdef'));
    expect(headers).toEqual(
      expect.arrayContaining([
        'Bearer bcdef',
        'Bearer abdef',
        'Bearer abcde',
        'Bearer xabcdef',
        'Bearer bacdef',
        'Bearer abdcef',
        'Bearer abcdex',
      ]),
    );
  });
});
