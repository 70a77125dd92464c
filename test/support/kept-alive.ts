// A request over a connection its client keeps alive (as browsers and fetch do), for the tests of a
// server's close(): such a connection must not hold the close once its answer is written.
import { Agent, request } from 'node:http';

/**
 * `GET origin + path` (its body read whole) over an Agent that keeps its sockets open, destroyed by
 * `done`. `sent`: the request is written; `answered`: its status once the answer is read.
 */
export function keptAliveGet(origin: string, path: string, headers: Record<string, string>) {
  const agent = new Agent({ keepAlive: true });
  const { hostname, port } = new URL(origin);
  let written = false;
  const answered = new Promise<number | undefined>((resolve, reject) => {
    const req = request({ host: hostname, port, agent, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(() => {
      written = true;
    });
  });
  return { answered, sent: () => written, done: () => agent.destroy() };
}

/** 'closed' if `closing` resolves within `ms`, else what it was still doing. */
export function closedWithin(closing: Promise<void> | undefined, ms: number): Promise<string> {
  const late = new Promise<string>((resolve) =>
    setTimeout(() => resolve(`still open after ${ms} ms`), ms).unref(),
  );
  return Promise.race([(closing ?? Promise.resolve()).then(() => 'closed'), late]);
}
