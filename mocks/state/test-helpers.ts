// For the shared-state tests: replicas (each its own pool and reset channel, as separate processes
// would have) on a database of the test file's own, closed after the file.
import { afterAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres/database.js';
import { connectState, type SharedState, type StateOptions } from './connect.js';
import type { ResetEvent } from './reset-channel.js';

export interface Replicas {
  readonly database: TestDatabase;
  /** Connects one more replica to the file's database (closed after the file). */
  connect(options?: StateOptions): Promise<SharedState>;
}

/** A fresh database for this test file, dropped after it, and a way to connect replicas to it. */
export async function replicasOnFreshDatabase(): Promise<Replicas> {
  const database = await createTestDatabase();
  const open: SharedState[] = [];
  afterAll(async () => {
    await Promise.all(open.map((state) => state.close().catch(() => undefined)));
    await database.drop();
  });
  return {
    database,
    async connect(options = {}) {
      const state = await connectState(database.url, options);
      open.push(state);
      return state;
    },
  };
}

/** Resolves on the next reset event of `state` that `accept` takes. */
export function nextReset(
  state: SharedState,
  accept: (event: ResetEvent) => boolean = () => true,
): Promise<ResetEvent> {
  return new Promise((resolve) => {
    const stop = state.onReset((event) => {
      if (!accept(event)) return;
      stop();
      resolve(event);
    });
  });
}
