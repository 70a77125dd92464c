import { defineConfig } from 'vitest/config';

// The live contract run (contract-tests/contract.live.ts) is collected only when CONTRACT_BASE_URL is
// set: `CONTRACT_BASE_URL=… CONTRACT_API_KEY=… npx vitest run contract-tests`. A plain `npm test`
// neither runs it nor lists it as skipped.
const live = process.env.CONTRACT_BASE_URL ? ['contract-tests/contract.live.ts'] : [];

export default defineConfig({
  test: {
    include: [
      'openapi/**/*.test.ts',
      'mocks/**/*.test.ts',
      'contract-tests/**/*.test.ts',
      'cli/**/*.test.ts',
      'proxy/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'bench/**/*.test.ts',
      'test/**/*.test.ts',
      ...live,
    ],
    testTimeout: 20_000,
    // One PostgreSQL cluster for the run (the shared-state tests); each test file makes its own database.
    globalSetup: ['test/support/postgres/global-setup.ts'],
  },
});
