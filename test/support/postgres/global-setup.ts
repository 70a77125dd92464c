// vitest globalSetup: one PostgreSQL cluster for the whole test run, started before the first test
// file and stopped (by its PID) after the last. Test files reach it through createTestDatabase().
import type { TestProject } from 'vitest/node';
import { startCluster } from './cluster.js';
import type { TestPostgres } from './provided.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startCluster();
  const provided: TestPostgres = {
    host: cluster.host,
    port: cluster.port,
    user: cluster.user,
    binaries: cluster.binaries,
  };
  project.provide('postgres', provided);
  return () => cluster.destroy();
}
