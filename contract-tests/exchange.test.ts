import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { excerpt, toCurl } from './exchange.js';
import { BRACED_KEY } from './redaction.js';

test('a request becomes a curl command that the shell fills the key into', () => {
  const curl = toCurl({
    method: 'POST',
    url: 'http://127.0.0.1:4010/v1/pets',
    headers: { authorization: 'Bearer $API_KEY', 'content-type': 'application/json' },
    body: `{"name":"O'Malley"}`,
  });
  expect(curl).toBe(
    `curl -i -X POST 'http://127.0.0.1:4010/v1/pets' -H "authorization: Bearer $API_KEY" ` +
      `-H 'content-type: application/json' --data-raw '{"name":"O'\\''Malley"}'`,
  );
});

test('the forms of $API_KEY are expanded by the shell, the rest is literal', () => {
  const curl = toCurl({
    method: 'GET',
    url: 'http://127.0.0.1:4010/v1/pets?q=$API_KEY',
    headers: { authorization: `Bearer ${BRACED_KEY}x`, 'x-note': `it's "$API_KEY"!` },
  });
  expect(curl).toBe(
    `curl -i "http://127.0.0.1:4010/v1/pets?q=$API_KEY" -H "authorization: Bearer ${BRACED_KEY}x" ` +
      `-H 'x-note: it'\\''s "'"$API_KEY"'"!'`,
  );
});

describe('excerpt', () => {
  it('folds a multi-line body onto one line and cuts it at the limit', () => {
    expect(excerpt('<html>\n  <body>\n    Not found\n  </body>\n</html>')).toBe(
      '<html> <body> Not found </body> </html>',
    );
    expect(excerpt('x'.repeat(400), 10)).toBe('xxxxxxxxxx… (400 characters)');
  });

  it('never cuts a surrogate pair in two (half of one is no character: JSON shows it as \\ud83d)', () => {
    expect(excerpt('🐶'.repeat(200), 5)).toBe('🐶🐶… (400 characters)');
  });

  // A long body is folded a head at a time: what it shows is what folding the whole body shows.
  it('shows of a long body what folding all of it would', () => {
    const whole = (body: string, max: number) => {
      const line = body.replace(/[^\S\uFEFF]+/g, ' ').replace(/^ | $/g, '');
      if (line.length <= max) return line;
      const end = /[\ud800-\udbff]/.test(line.charAt(max - 1)) ? max - 1 : max;
      return `${line.slice(0, end)}… (${body.length} characters)`;
    };
    const unit = fc.constantFrom(' ', '\t\n', '\u00a0', '\u3000', '\uFEFF', 'a', '🐶', '\ud800');
    const run = fc.tuple(unit, fc.integer({ min: 1, max: 200 })).map(([text, times]) => text.repeat(times));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 40 }), fc.integer({ min: 1, max: 100 }), (units, max) => {
        const body = units.join('');
        expect(excerpt(body, max)).toBe(whole(body, max));
      }),
      { numRuns: 2000 },
    );
  });
});
