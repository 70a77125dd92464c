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
    expect(parseKeysFile(key(512), 'F').keys[0]?.key).toHaveLength(512);
    expect(() => parseKeysFile(key(514), 'F')).toThrow(/at most 512 characters/);
  });
});
