// The further pairs of processes a side-by-side pair is read over (bench/run.ts, --journal-pairs,
// --ceiling-pairs): each pair started one process at a time, warmed and driven, then stopped,
// whatever happened. A pair that fails (a process that does not start, or dies while it is warmed or
// driven) ends the reading with the pairs read before it; no process it started is left running.

export interface FreshPairSteps<Process, Figures> {
  /** Starts the pair's processes, in this order (the next is started once the one before has). */
  readonly start: readonly (() => Promise<Process>)[];
  /** Warms and drives the pair (its 1-based number among every pair read, the run's own first). */
  readonly read: (processes: readonly Process[], pair: number) => Promise<Figures | undefined>;
  /** Stops a process; a stop that fails is the process gone already. */
  readonly stop: (process: Process) => Promise<void>;
  /** Told of a pair that failed, before its processes are stopped. */
  readonly failed: (pair: number, error: unknown) => void;
}

/**
 * Reads pairs `from` to `to` (1-based, the run's own pair being 1), one after another: answers the
 * figures of those read before any failed.
 */
export async function readFreshPairs<Process, Figures>(
  from: number,
  to: number,
  steps: FreshPairSteps<Process, Figures>,
): Promise<Figures[]> {
  const read: Figures[] = [];
  for (let pair = from; pair <= to; pair += 1) {
    const started: Process[] = [];
    try {
      for (const start of steps.start) started.push(await start());
      const figures = await steps.read(started, pair);
      if (figures !== undefined) read.push(figures);
    } catch (error) {
      steps.failed(pair, error);
      break;
    } finally {
      // Run before the break leaves the loop, as after a pair read.
      await Promise.all(started.map((process) => steps.stop(process).catch(() => undefined)));
    }
  }
  return read;
}
