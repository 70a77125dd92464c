// keyRuns, the runs of several keys the proxy hides, read along the suite's automata: the same runs as
// the plain search it replaced (a run sought from every place), in texts that hold pieces of the keys
// in any case; and, decoded, the same runs of the escaped text as of the text unescaped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Cores, type KeySought, keyRuns } from './key-search.js';

const fold = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The search proxy/credential.ts made before: leftmost-longest, the last place in a key and the first key on a tie. */
function plainRuns(text: string, keys: readonly KeySought[]) {
  const lower = fold(text);
  const runs: { start: number; end: number; index: number; from: number }[] = [];
  for (let p = 0; p < text.length; ) {
    let best = { length: 0, index: -1, from: 0 };
    keys.forEach(({ key, least }, index) => {
      const folded = fold(key);
      let mine = { length: 0, from: 0 };
      for (let at = 0; at < folded.length; at += 1) {
        let run = 0;
        while (at + run < folded.length && lower[p + run] === folded[at + run]) run += 1;
        if (run >= least && run >= mine.length && run > 0) mine = { length: run, from: at };
      }
      if (mine.length > best.length) best = { ...mine, index };
    });
    if (best.length === 0) {
      p += 1;
      continue;
    }
    runs.push({ start: p, end: p + best.length, index: best.index, from: best.from });
    p += best.length;
  }
  return runs;
}

describe('keyRuns', () => {
  const keyChar = fc.constantFrom(...'abcAB12-_.xyz');
  const textChar = fc.constantFrom(...'abcAB12-_.xyz %\\&;#u0é', '\u212a', '\u0130');
  const change = fc.constantFrom(
    (part: string) => part,
    (part: string) => part.toLowerCase(),
    (part: string) => part.toUpperCase(),
  );

  it('finds the runs the plain search found, from every place of the text', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.string({ unit: keyChar, minLength: 1, maxLength: 24 }), fc.integer({ min: 1, max: 8 })),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        fc.string({ unit: textChar, maxLength: 120 }),
        fc.array(fc.tuple(fc.nat(120), fc.nat(2), fc.nat(24), fc.nat(24), change), { maxLength: 4 }),
        (pairs, noise, inserts) => {
          const keys = pairs.map(([key, least]) => ({ key, least: Math.min(least, key.length) }));
          let text = noise;
          for (const [at, which, from, length, spelled] of inserts) {
            const key = keys[which % keys.length]?.key ?? '';
            const start = from % key.length;
            text = text.slice(0, at) + spelled(key.slice(start, start + length)) + text.slice(at);
          }
          expect(
            keyRuns(text, keys).map(({ start, end, index, from }) => ({ start, end, index, from })),
          ).toEqual(plainRuns(text, keys));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('reads a run through percent-, JSON and HTML escapes and NULs, and says where it stands in the text', () => {
    const keys = [{ key: 'sk_live_Abc123xyz', least: 4 }];
    for (const [text, seen] of [
      ['key sk%5Flive%5FAbc123xyz!', 'sk_live_Abc123xyz'],
      ['key \\u0073k_live_ABC123XYZ!', 'sk_live_ABC123XYZ'],
      ['key &#115;&#x6b;_live_abc123xyz!', 'sk_live_abc123xyz'],
      ['key s\u0000k\u0000_\u0000l\u0000i\u0000v\u0000e\u0000!', 'sk_live'],
    ] as const) {
      const runs = keyRuns(text, keys, { decode: true });
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        start: 4,
        end: text.length - 1 - (seen === 'sk_live' ? 1 : 0),
        seen,
        encoded: true,
      });
      expect(keyRuns(text, keys)).not.toEqual(runs);
    }
  });

  it("gives a key's base64 wherever it starts in a stream, as Basic and base64url write it", () => {
    const key = 'sk_live_Abc123xyz?>';
    const cores = base64Cores(key);
    for (const before of ['', 'a', 'ab', 'ada:']) {
      const encoded = Buffer.from(`${before}${key}`).toString('base64');
      expect(cores.some((core) => encoded.includes(core))).toBe(true);
      const url = Buffer.from(`${before}${key}`).toString('base64url');
      expect(cores.some((core) => url.includes(core))).toBe(true);
    }
  });
});
