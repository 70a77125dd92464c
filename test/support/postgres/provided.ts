// What the global setup hands every test file (vitest's provide/inject): where the run's PostgreSQL
// listens, and its binaries, so a test that needs a server of its own skips the copy.
import type { PostgresBinaries } from './binaries.js';

export interface TestPostgres {
  readonly host: string;
  readonly port: number;
  /** A superuser; the cluster trusts connections from 127.0.0.1 (no password). */
  readonly user: string;
  readonly binaries: PostgresBinaries;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: TestPostgres;
  }
}
