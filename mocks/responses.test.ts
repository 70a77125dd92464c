import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode, errorBody } from './errors.js';
import { errorJson, errorReply } from './responses.js';

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

describe('errorReply', () => {
  it("answers a code's own message as the same bytes every time, JSON.stringify's text, headers its own", () => {
    for (const code of codes) {
      const first = errorReply(code);
      const again = errorReply(code, undefined, [], { 'www-authenticate': 'Bearer realm="pets"' });
      expect(first.body).toBeInstanceOf(Uint8Array);
      expect(again.body).toBe(first.body);
      expect(new TextDecoder().decode(first.body as Uint8Array)).toBe(JSON.stringify(errorBody(code)));
      expect(first.status).toBe(ERRORS[code].status);
      // Each reply's headers are its own: the core adds to them per answer.
      expect(again.headers).not.toBe(first.headers);
      expect(first.headers['www-authenticate']).toBeUndefined();
    }
  });
  it('answers a message or details of its own as text', () => {
    const body = errorReply('validation_failed', 'Invalid body: /name is required.', [
      { path: '/name', message: 'is required' },
    ]).body;
    expect(body).toBe(
      JSON.stringify(
        errorBody('validation_failed', 'Invalid body: /name is required.', [
          { path: '/name', message: 'is required' },
        ]),
      ),
    );
  });
});
