import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'spec/**/*.test.ts',
      'mocks/**/*.test.ts',
      'contract-tests/**/*.test.ts',
      'cli/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'bench/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // The live contract run (contract-tests/live.test.ts) only runs when CONTRACT_BASE_URL is set.
    testTimeout: 20_000,
  },
});
