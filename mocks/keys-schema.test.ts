import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaModule } from '../openapi/standalone.js';
import { KeysFileError, parseKeysFile } from './keys.js';
import { KEYS_SCHEMA_MODULE } from './keys-schema.js';

describe('the keys file schema', () => {
  it('mocks/keys-schema.gen.ts is what ajv precompiles from mocks/keys-schema.ts (run `npm run generate`)', () => {
    expect(schemaModule(KEYS_SCHEMA_MODULE)).toBe(
      readFileSync(new URL('keys-schema.gen.ts', import.meta.url), 'utf8'),
    );
  });

  it('says each fault in words, where it is', () => {
    const cases: [unknown, string][] = [
      [[], 'must be an object with a "keys" array, e.g. {"keys":[{"key":"k","plan":"free"}]}.'],
      [{ keys: {} }, 'must be an object with a "keys" array, e.g. {"keys":[{"key":"k","plan":"free"}]}.'],
      [{ keys: [], x: 1 }, 'has an unknown property "x" (known: "keys", "anonymous").'],
      [{ keys: [1] }, 'keys[0] must be an object.'],
      [
        { keys: [{ plan: 'free' }] },
        'keys[0].key must be a non-empty string without spaces, at most 512 characters.',
      ],
      [
        { keys: [{ key: 'a b', plan: 'free' }] },
        'keys[0].key must be a non-empty string without spaces, at most 512 characters.',
      ],
      [{ keys: [{ key: 'k' }] }, 'keys[0].plan must be one of free, pro, business, enterprise.'],
      [
        { keys: [{ key: 'k', plan: 'free', perMinute: 1.5 }] },
        'keys[0].perMinute must be a positive integer.',
      ],
      [{ keys: [{ key: 'k', plan: 'free', foo: 1 }] }, 'keys[0] has an unknown property "foo".'],
      [
        { keys: [{ key: 'k', plan: 'enterprise', perMinute: 5 }] },
        'keys[0].perDay is required for the enterprise plan.',
      ],
      [
        { keys: [], anonymous: 3 },
        'anonymous must be an object with positive integers perMinute and perDay.',
      ],
    ];
    for (const [value, message] of cases) {
      expect(() => parseKeysFile(value, 'F')).toThrow(new KeysFileError('F', message));
    }
  });

  it('measures a key in UTF-16 units, as the bearer token is measured', () => {
    const key = (length: number) => ({ keys: [{ key: '🐾'.repeat(length / 2), plan: 'free' }] });
    expect(() => parseKeysFile(key(514), 'F')).toThrow(/at most 512 characters/);
    expect(parseKeysFile({ keys: [{ key: 'é'.repeat(512), plan: 'free' }] }, 'F').keys[0]?.key).toHaveLength(
      512,
    );
  });

  it('refuses a key no Authorization header can carry, by its place and code point, never quoting it', () => {
    const cases: [string, string][] = [
      ['sk\u0001live', 'has a control character, U+0001, at character 3'],
      ['\u001b[31mred', 'has a control character, U+001B, at character 1'],
      ['sk_live\u007f', 'has a control character, U+007F, at character 8'],
      ['sk\u009blive', 'has a control character, U+009B, at character 3'],
      ['sk_\u200blive', 'has a character beyond Latin-1, U+200B, at character 4'],
      ['\u202eevil', 'has a character beyond Latin-1, U+202E, at character 1'],
      ['🐾🐾', 'has a character beyond Latin-1, U+1F43E, at character 1'],
    ];
    for (const [key, fault] of cases) {
      const file = {
        keys: [
          { key: 'demo-free', plan: 'free' },
          { key, plan: 'free' },
        ],
      };
      expect(() => parseKeysFile(file, 'F')).toThrow(
        new KeysFileError(
          'F',
          `keys[1].key ${fault}: no Authorization header can carry it (a key is printable ASCII, or Latin-1).`,
        ),
      );
    }
    // Latin-1 travels: node:http reads a header's bytes so, and fetch sends them so.
    expect(parseKeysFile({ keys: [{ key: 'café', plan: 'free' }] }, 'F').keys[0]?.key).toBe('café');
  });
});
