import { describe, expect, it } from 'vitest';
import { keyMasker } from './key-label.js';

describe('keyMasker', () => {
  const secret = 'sk_live_4f9a/SECRET"xyz';
  const mask = keyMasker([secret, 'demo-free']);
  it('hides a private key written as it is, and leaves the demo keys, public anyway', () => {
    expect(mask?.(`token=${secret}&k=demo-free`)).toBe('token=sk_li…&k=demo-free');
    expect(keyMasker(['demo-free', 'demo-pro'])).toBeUndefined();
  });

  it('hides it written with escapes: percent-encoded (either case), JSON-escaped, or a mix', () => {
    const percent = [...secret].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    for (const written of [
      'sk%5Flive%5f4f9a%2FSECRET%22xyz',
      percent,
      percent.toUpperCase(),
      'sk_live_4f9a\\/SECRET\\"xy\\u007a',
      '\\u0073k_live_4f9a/SECRET\\u0022xyz',
      'sk%5Flive_4f9a\\u002fSECRET"x%79\\u007A',
    ])
      expect(mask?.(`{"q":"${written}"}`), written).toBe('{"q":"sk_li…"}');
  });

  it('hides a key beyond ASCII by its UTF-8 bytes or its UTF-16 escapes', () => {
    const masked = keyMasker(['clé-🐶-secrète']);
    expect(masked?.('/v1/pets?k=cl%C3%A9-%F0%9F%90%B6-secr%c3%a8te')).toBe('/v1/pets?k=clé…');
    expect(masked?.('"cl\\u00e9-\\ud83d\\udc36-secr\\u00E8te"')).toBe('"clé…"');
  });

  it('leaves a text that only looks like it', () => {
    for (const text of ['sk%5Flive%5F4f9a%2FSECRET%22xy', 'sk_live_4f9a/secret"xyz', 'sk%255Flive']) {
      expect(mask?.(text)).toBe(text);
    }
  });
});
