// Keeps a server's state from binding during a scenario: POSTs its reset endpoint now and then every
// interval. For petkit that empties the store back to its seeded pets, so the 100,000-pet cap (507)
// never binds however many creates a run sends, as the bench key's limits never bind.
import { request } from 'node:http';

export function postReset(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resets once, waits for it, then every `intervalMs` until the returned function is called. */
export async function startResetLoop(url: string, intervalMs = 1000): Promise<() => void> {
  const status = await postReset(url);
  if (status < 200 || status >= 300) throw new Error(`POST ${url} answered ${status}, not 2xx`);
  const timer = setInterval(() => {
    postReset(url).catch(() => undefined);
  }, intervalMs);
  return () => clearInterval(timer);
}
