// `npx petkit mock &` then `kill $!` is how a CI script stops a background mock. $! is npm's pid; npm
// runs the bin under `sh -c` and passes SIGTERM to that shell alone, which dies without passing it
// on: the mock, reparented, kept running and held its port for the rest of the job. What the mock
// can see is its parent gone (process.ppid changes): it then stops as on SIGTERM.
//
// Only under npx (npm exec), whose shell runs the bin and nothing else, so that shell never ends
// while the mock runs unless it was killed. A mock a script started with & itself and left behind
// (`petkit mock &` in a script that then exits) is reparented too, and is meant to live on.

/** npm exec and npx set this in the environment of what they run. */
export function startedByNpx(env: NodeJS.ProcessEnv): boolean {
  return env.npm_lifecycle_event === 'npx';
}

export interface ParentWatchOptions {
  /** How often the parent is looked at. Default 500 ms. */
  readonly intervalMs?: number;
  /** The parent's pid now; default process.ppid. */
  readonly ppid?: () => number;
}

/**
 * Calls `onGone` once, when the parent process this one had at the call has ended. The timer does
 * not keep the process alive. Answers a function that stops watching.
 */
export function watchParent(onGone: () => void, options: ParentWatchOptions = {}): () => void {
  const ppid = options.ppid ?? (() => process.ppid);
  const parent = ppid();
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? 500);
  timer.unref();
  return () => clearInterval(timer);
}
