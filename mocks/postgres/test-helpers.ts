// For the shared-state tests: replicas (each its own pool and reset channel, as separate processes
// would have) on a schema of their own in the test file's database.
import { onTestFinished } from 'vitest';
import type { TestDatabase } from '../../test/support/postgres/database.js';
import { connectState, type SharedState, type StateOptions } from './connect.js';
import type { ResetEvent } from './reset-channel.js';

export interface Replicas {
  /** The state URL the replicas share. */
  readonly url: string;
  /** Connects one more replica. */
  connect(options?: StateOptions): Promise<SharedState>;
  /** Closes every replica connected so far. */
  close(): Promise<void>;
}

/** A fresh, empty schema in `database` and a way to connect replicas to it. */
export async function replicasIn(database: TestDatabase): Promise<Replicas> {
  const url = await database.schema();
  const open: SharedState[] = [];
  return {
    url,
    async connect(options = {}) {
      const state = await connectState(url, options);
      open.push(state);
      return state;
    },
    async close() {
      await Promise.all(open.splice(0).map((state) => state.close().catch(() => undefined)));
    },
  };
}

/** Replicas on a schema of their own (replicasIn), closed when the test that made them ends. */
export async function freshReplicasIn(database: TestDatabase): Promise<Replicas> {
  const replicas = await replicasIn(database);
  onTestFinished(() => replicas.close());
  return replicas;
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
