import { describe, expect, it } from 'vitest';
import { isDateTime } from './formats.js';
import { validatorModule } from './standalone.js';

describe('date-time (RFC 3339), as the control API reads POST /__petkit/clock {"set"}', () => {
  it('takes an instant with a zone', () => {
    for (const value of [
      '2030-01-01T00:00:00Z',
      '2030-01-01t00:00:00.123z',
      '2028-02-29T23:59:59+01:00',
      '2000-02-29T00:00:00Z',
      '0000-02-29T00:00:00Z',
    ])
      expect(isDateTime(value), value).toBe(true);
  });

  it('refuses one without a zone, a day that does not exist, or anything else', () => {
    for (const value of [
      '2030-01-01T00:00:00',
      '2030-01-01',
      '2030-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2030-04-31T00:00:00Z',
      '2030-13-01T00:00:00Z',
      '2030-01-01T24:00:00Z',
      '2028-02-29T23:59:60Z',
      '2030-01-01T00:00:00+24:00',
      'tomorrow',
      '',
    ])
      expect(isDateTime(value), value).toBe(false);
  });
});

describe('the precompiled validators', () => {
  it('refuse a format petkit does not define, a dashed name too (the generated code cannot load it)', () => {
    const document = (format: string) => ({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { T: { type: 'string', format } } },
    });
    expect(() => validatorModule(document('iso-time'))).toThrow(
      'The standalone validators use format iso-time, not in FORMATS.',
    );
    expect(validatorModule(document('date-time'))).toContain('formats["date-time"]');
  });
});
