// Requests kept going against mock replicas while a test takes their database away: a few workers,
// each sending its next request to the next replica in turn, creates (each pet a name of its own, so
// the test can find it in the database afterwards) and lists. Every answer is recorded, and a test
// waits for what it needs to have happened (`until`) rather than for a while.

export interface TrafficAnswer {
  /** Which replica answered (its index in the URLs given). */
  readonly replica: number;
  readonly kind: 'create' | 'list';
  /** The HTTP status, or 0 when no answer came (connection refused or reset: the replica is gone). */
  readonly status: number;
  /** The Error body's code, for an error status. */
  readonly code: string | undefined;
  /** The created pet's name (creates only). */
  readonly name: string | undefined;
  /** The Location of a 201. */
  readonly location: string | undefined;
  /** Why no answer came, when status is 0. */
  readonly failure: string | undefined;
}

export interface Traffic {
  /** Every answer so far, in the order they came. */
  readonly answers: readonly TrafficAnswer[];
  /**
   * Resolves once every replica has given `count` answers that `matches` takes, counting from the
   * `from`-th answer (checked as each comes). Rejects, saying what was awaited, after `timeoutMs`, or
   * as soon as a request got no answer at all (a replica that is gone will never give it).
   */
  until(
    what: string,
    from: number,
    matches: (answer: TrafficAnswer) => boolean,
    count?: number,
  ): Promise<void>;
  /** Lets the requests in flight finish and sends no more. */
  stop(): Promise<void>;
}

export interface TrafficOptions {
  /** Requests in flight at once. Default 4. */
  readonly workers?: number;
  readonly apiKey: string;
  /** Bound on each wait of until(). Default 10,000 ms. */
  readonly timeoutMs?: number;
}

/** A bound on one request: a replica that stops answering is a failure, not a hang. */
const REQUEST_TIMEOUT_MS = 8_000;

export function startTraffic(baseUrls: readonly string[], options: TrafficOptions): Traffic {
  const answers: TrafficAnswer[] = [];
  const waiters = new Set<() => void>();
  const timeoutMs = options.timeoutMs ?? 10_000;
  let sent = 0;
  let stopped = false;

  const record = (answer: TrafficAnswer): void => {
    answers.push(answer);
    for (const check of [...waiters]) check();
  };

  const send = async (): Promise<void> => {
    const number = sent++;
    const replica = number % baseUrls.length;
    const base = baseUrls[replica] as string;
    const kind = number % 3 === 2 ? 'list' : 'create';
    const name = kind === 'create' ? `traffic ${number}` : undefined;
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}` };
    let request: Promise<Response>;
    if (kind === 'create') {
      headers['content-type'] = 'application/json';
      request = fetch(`${base}/pets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name, categoryId: 1 }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } else {
      request = fetch(`${base}/pets?limit=5`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    }
    try {
      const response = await request;
      const body = (await response.json()) as { code?: unknown };
      record({
        replica,
        kind,
        status: response.status,
        code: response.ok ? undefined : String(body.code),
        name,
        location: response.headers.get('location') ?? undefined,
        failure: undefined,
      });
    } catch (error) {
      const cause = (error as Error & { cause?: unknown }).cause;
      const failure = `${(error as Error).message}${cause instanceof Error ? ` (${cause.message})` : ''}`;
      record({ replica, kind, status: 0, code: undefined, name, location: undefined, failure });
    }
  };

  const worker = async (): Promise<void> => {
    while (!stopped) await send();
  };
  const running = Promise.all(Array.from({ length: options.workers ?? 4 }, worker));

  return {
    answers,
    until(what, from, matches, count = 1) {
      const seen = baseUrls.map(() => 0);
      let read = from;
      return new Promise((resolve, reject) => {
        const check = () => {
          for (; read < answers.length; read += 1) {
            const answer = answers[read] as TrafficAnswer;
            if (answer.status === 0) {
              done();
              reject(new Error(`Traffic: replica ${answer.replica} did not answer: ${answer.failure}`));
              return;
            }
            if (matches(answer)) seen[answer.replica] = (seen[answer.replica] ?? 0) + 1;
          }
          if (seen.some((n) => n < count)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(`Traffic: waited ${timeoutMs} ms for ${what}; seen per replica: ${seen.join(', ')}`),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
