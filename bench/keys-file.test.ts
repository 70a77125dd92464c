import { describe, expect, it } from 'vitest';
import { createMock } from '../mocks/index.js';
import { BENCH_KEYS_FILE } from './keys-file.js';
import { BENCH_KEY } from './scenarios.js';

describe('the bench keys file', () => {
  it('keeps the limiter counting but never binding, with and without the key', async () => {
    const mock = createMock({ keys: structuredClone(BENCH_KEYS_FILE) });
    const answers = [];
    for (let i = 0; i < 200; i += 1) {
      answers.push(await mock.request('/v1/pets?limit=1'));
      answers.push(
        await mock.request('/v1/pets?limit=1', { headers: { authorization: `Bearer ${BENCH_KEY}` } }),
      );
    }
    expect(answers.filter((r) => r.status === 401)).toHaveLength(200);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(200);
    const last = answers.at(-2);
    expect(last?.headers.get('x-ratelimit-limit')).toBe('1000000000');
    expect(last?.headers.get('x-ratelimit-remaining')).toBe(String(1_000_000_000 - 200));
  });
});
