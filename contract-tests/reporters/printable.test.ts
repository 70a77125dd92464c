import { expect, test } from 'vitest';
import { printable } from './printable.js';

test('shows every character a terminal acts on as a \\u escape, and leaves the rest', () => {
  expect(printable('\u001b[2J\u0007\t\r\n\u0000\u007f')).toBe(
    '\\u001b[2J\\u0007\\u0009\\u000d\\u000a\\u0000\\u007f',
  );
  // C1 (CSI, NEL), a lone surrogate of either half, a right-to-left override, a line separator.
  expect(printable('\u009b2J\u0085 \ud83d \udc36 \u202egnp.exe \u2028')).toBe(
    '\\u009b2J\\u0085 \\ud83d \\udc36 \\u202egnp.exe \\u2028',
  );
  expect(printable('Café 🐶 — ✓ pass, \\ and "quotes"')).toBe('Café 🐶 — ✓ pass, \\ and "quotes"');
});

test('shows the characters that take no width as escapes, and keeps the joiners emoji are made of', () => {
  expect(printable('\uFEFF[1]\u200B\u2060')).toBe('\\ufeff[1]\\u200b\\u2060');
  expect(printable('🐕\u200D🦺 \u200C')).toBe('🐕\u200D🦺 \u200C');
});
