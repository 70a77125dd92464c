import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode, errorBody } from './errors.js';
import { errorJson } from './responses.js';

const codes = Object.keys(ERRORS) as ErrorCode[];

describe('errorJson', () => {
  it('writes exactly what JSON.stringify writes for any Error body, any strings in it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.option(fc.string({ unit: 'grapheme' }), { nil: undefined }),
        fc.option(fc.array(fc.record({ path: fc.string(), message: fc.string({ unit: 'binary' }) })), {
          nil: undefined,
        }),
        (code, message, details) => {
          const body = errorBody(code, message, details);
          expect(errorJson(body)).toBe(JSON.stringify(body));
        },
      ),
      { numRuns: 500 },
    );
  });
});
