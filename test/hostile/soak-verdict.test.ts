import { describe, expect, it } from 'vitest';
import { growthVerdict } from './soak-verdict.js';

const MB = 1024 * 1024;

describe('growthVerdict', () => {
  it('passes memory that rises while warming up and then holds', () => {
    const samples = Array.from({ length: 40 }, (_, i) => (i < 10 ? 60 + i * 5 : 110) * MB);
    expect(growthVerdict(samples)).toEqual({ settled: 110 * MB, last: 110 * MB, growing: false });
  });
  it('fails memory that keeps climbing after warm-up', () => {
    const samples = Array.from({ length: 40 }, (_, i) => (100 + i * 4) * MB);
    expect(growthVerdict(samples).growing).toBe(true);
  });
  it('passes noise within 32 MB', () => {
    const samples = Array.from({ length: 40 }, (_, i) => (100 + (i % 3) * 10) * MB);
    expect(growthVerdict(samples).growing).toBe(false);
  });
});
