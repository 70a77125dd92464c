import fc from 'fast-check';
import { expect, test } from 'vitest';
import { anchorsOf, automatonOf, stretches, stretchFinder } from './key-search.js';

const lowerAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

test('every stretch of a key at least `shortest` long holds one of its anchors whole', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.nat(), fc.nat(), (key, from, more) => {
      const shortest = Math.min(key.length, Math.max(Math.min(key.length, 8), Math.ceil(key.length / 2)));
      const anchors = anchorsOf(key, shortest);
      const start = from % (key.length - shortest + 1);
      const stretch = key.slice(start, start + shortest + (more % (key.length - start - shortest + 1)));
      expect(anchors.some((anchor) => stretch.includes(anchor))).toBe(true);
    }),
  );
});

// The finder only skips reading a text that holds no anchor: what it finds is what the automaton
// finds, in texts that hold pieces of the key in any case, escapes, and characters whose lower case
// is ASCII (K, the Kelvin sign) or longer (İ).
test('stretchFinder finds exactly what the automaton read along the whole text finds', () => {
  const keyChar = fc.constantFrom(...'abcAB12-_.~+/xyzKkSs|:"');
  const textChar = fc.constantFrom(...'abcAB12-_.~+/xyzKkSs|:" %\\&;#u0é', '\u212a', '\u0130', '\u017f');
  const change = fc.constantFrom(
    (part: string) => part,
    (part: string) => part.toLowerCase(),
    (part: string) => part.toUpperCase(),
  );
  fc.assert(
    fc.property(
      fc.string({ unit: keyChar, minLength: 1, maxLength: 40 }),
      fc.string({ unit: textChar, maxLength: 200 }),
      fc.array(fc.tuple(fc.nat(200), fc.nat(40), fc.nat(40), change), { maxLength: 3 }),
      (key, noise, inserts) => {
        let text = noise;
        for (const [at, from, length, spelled] of inserts) {
          const start = from % key.length;
          text = text.slice(0, at) + spelled(key.slice(start, start + length)) + text.slice(at);
        }
        const pattern = lowerAscii(key);
        const shortest = Math.max(Math.min(key.length, 8), Math.ceil(key.length / 2));
        expect(stretchFinder(pattern, shortest)(text)).toEqual(
          stretches(text, automatonOf(pattern), shortest),
        );
      },
    ),
    { numRuns: 2000 },
  );
});
