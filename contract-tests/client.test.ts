import { describe, expect, test } from 'vitest';
import { type ClientOptions, createClient, type Outgoing, retryAfterMs } from './client.js';
import { ContractAbort } from './errors.js';
import type { Exchange } from './exchange.js';
import { createRedactor } from './redaction.js';
import { OutOfTime } from './window-spender.js';

interface Scripted {
  status: number;
  headers?: Record<string, string>;
  /** Default `[]`. */
  body?: string;
}

/** A scripted server on an injected clock: answers in order (the last answer repeats), takes no time. */
function harness(script: Scripted[], overrides: Partial<ClientOptions> = {}) {
  let clock = 1_800_000_000_000;
  const calls: { at: number; url: string; init: RequestInit | undefined }[] = [];
  const sleeps: number[] = [];
  const exchanges: Exchange[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ at: clock, url: String(input), init });
    const answer = script[Math.min(calls.length - 1, script.length - 1)] ?? { status: 200 };
    return new Response(answer.body ?? '[]', {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as typeof globalThis.fetch;
  const client = createClient({
    baseUrl: 'http://staging.example/v1',
    apiKey: 'secret-key-123',
    redactor: createRedactor(overrides.apiKey ?? 'secret-key-123'),
    timeoutMs: 1000,
    maxRpm: undefined,
    readOnly: false,
    maxWaitMs: 65_000,
    maxRetries: 3,
    backoffBaseMs: 500,
    fetch,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    random: () => 0.5,
    onExchange: (exchange) => exchanges.push(exchange),
    ...overrides,
  });
  const start = clock;
  return { client, calls, sleeps, exchanges, elapsed: (at: number) => at - start };
}

const list: Outgoing = { operationId: 'listPets', method: 'GET', path: '/pets' };

describe('the client paces itself', () => {
  test('never faster than --max-rpm', async () => {
    const { client, calls, elapsed } = harness([{ status: 200 }], { maxRpm: 60 });
    for (let i = 0; i < 3; i += 1) await client.send(list);
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 1000, 2000]);
  });

  test("learns the key's limit from X-RateLimit-Limit, and spends the window rather than pace under it", async () => {
    const { client, calls, elapsed } = harness([{ status: 200, headers: { 'x-ratelimit-limit': '120' } }]);
    for (let i = 0; i < 3; i += 1) await client.send(list);
    expect(client.maxRpm).toBe(120);
    expect(client.requestBudget()).toBe(2 * (120 - 6));
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 0, 0]);
  });

  test('spends the window down to its margin, then waits for X-RateLimit-Reset with jitter', async () => {
    const reset = Math.floor(1_800_000_000_000 / 1000) + 30;
    const window = (remaining: number) => ({
      status: 200,
      headers: {
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': String(reset),
      },
    });
    const { client, calls, sleeps } = harness([window(5), window(4), window(3), { status: 200 }]);
    for (let i = 0; i < 4; i += 1) await client.send(list);
    // 5, 4 and 3 left: the margin of a 60-a-minute window is 3, so the fourth waits for the reset.
    expect(calls.slice(0, 3).every((call) => call.at < reset * 1000)).toBe(true);
    expect(calls[3]?.at).toBe(reset * 1000 + 250);
    expect(sleeps).toEqual([30_000 + 250]);
  });

  test('reserves requests in flight: creates sent at once do not overshoot the margin', async () => {
    const reset = Math.floor(1_800_000_000_000 / 1000) + 30;
    const { client, calls, sleeps } = harness([
      {
        status: 200,
        headers: {
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '5',
          'x-ratelimit-reset': String(reset),
        },
      },
      { status: 201 },
    ]);
    await client.send(list);
    const post: Outgoing = { operationId: 'createPet', method: 'POST', path: '/pets', body: '{}' };
    await Promise.all([1, 2, 3, 4].map(() => client.send(post)));
    // 5 left, 3 kept: two go at once (no answer has come back yet), the third waits for the reset
    // (unreserved, all four would have gone); after it, the window is new and the fourth goes too.
    expect(sleeps).toEqual([30_000 + 250]);
    expect(calls).toHaveLength(5);
  });

  test('a wait for the window that would end past the deadline is OutOfTime, not a wait', async () => {
    const reset = Math.floor(1_800_000_000_000 / 1000) + 30;
    const { client, calls, sleeps } = harness(
      [
        {
          status: 200,
          headers: {
            'x-ratelimit-limit': '60',
            'x-ratelimit-remaining': '3',
            'x-ratelimit-reset': String(reset),
          },
        },
      ],
      { deadlineMs: 1_800_000_000_000 + 20_000 },
    );
    await client.send(list);
    await expect(client.send(list)).rejects.toBeInstanceOf(OutOfTime);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  test('keeps the tightest X-RateLimit-Limit it sees', async () => {
    const { client } = harness([
      { status: 200, headers: { 'x-ratelimit-limit': '1000' } },
      { status: 200, headers: { 'x-ratelimit-limit': '60' } },
      { status: 200, headers: { 'x-ratelimit-limit': '1000' } },
    ]);
    for (let i = 0; i < 3; i += 1) await client.send(list);
    expect(client.maxRpm).toBe(60);
  });

  test('learns nothing from the answers to requests sent without the key', async () => {
    const { client } = harness([
      { status: 200, headers: { 'x-ratelimit-limit': '1000' } },
      {
        status: 401,
        headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' },
      },
      { status: 200 },
    ]);
    await client.send(list);
    await client.send({ ...list, auth: 'none' });
    await client.send(list);
    expect(client.maxRpm).toBe(1000);
  });

  test('an explicit --max-rpm is not overridden by the headers', async () => {
    const { client } = harness([{ status: 200, headers: { 'x-ratelimit-limit': '10' } }], { maxRpm: 600 });
    await client.send(list);
    expect(client.maxRpm).toBe(600);
  });

  test('waits for the window to reset when X-RateLimit-Remaining reaches 0', async () => {
    const reset = Math.floor(1_800_000_000_000 / 1000) + 30;
    const { client, calls } = harness([
      { status: 200, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } },
      { status: 200 },
    ]);
    await client.send(list);
    await client.send(list);
    expect(calls[1]?.at).toBeGreaterThanOrEqual(reset * 1000);
  });

  test('stops (exit 2) rather than wait for a window that resets too far ahead', async () => {
    const reset = Math.floor(1_800_000_000_000 / 1000) + 3600;
    const { client, calls } = harness([
      { status: 200, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } },
    ]);
    await client.send(list);
    await expect(client.send(list)).rejects.toMatchObject({ code: 'rate_limit_exhausted' });
    expect(calls).toHaveLength(1);
  });
});

describe("a target whose clock is not this machine's (its Date says so)", () => {
  const NOW = 1_800_000_000_000;
  /** Remaining 0 in a window that ends 30 s after the target's own clock, which is `skewMs` off ours. */
  const spent = (skewMs: number) => ({
    status: 200,
    headers: {
      date: new Date(NOW + skewMs).toUTCString(),
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.floor((NOW + skewMs) / 1000) + 30),
    },
  });

  test('10 minutes fast: waits the 30 s its window has left, not 10.5 minutes (a stop, exit 2)', async () => {
    const { client, calls, elapsed } = harness([spent(600_000), { status: 200 }]);
    await client.send(list);
    await client.send(list);
    // 30 s, and the jitter (250 ms).
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 30_250]);
  });

  test('10 minutes slow: its spent window is not taken as over already (the next request a 429)', async () => {
    const { client, calls, elapsed } = harness([spent(-600_000), { status: 200 }]);
    await client.send(list);
    await client.send(list);
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 30_250]);
  });

  test('a clock within a few seconds of ours (Date has whole seconds) changes nothing', async () => {
    const { client, calls, elapsed } = harness([spent(-900), { status: 200 }]);
    await client.send(list);
    await client.send(list);
    // Its Reset read on our clock, as before: 29 s from now (the Date 0.9 s slow), and the jitter.
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 29_250]);
  });

  test('an answer a cache kept (Age: 200, its Date 200 s old) says nothing of the clock', async () => {
    const cached = spent(-200_000);
    const { client, calls, elapsed } = harness([
      { ...cached, headers: { ...cached.headers, age: '200' } },
      { status: 200 },
    ]);
    await client.send(list);
    await client.send(list);
    // Its Reset, 170 s ago, is the cached window's: over, so the next request goes at once.
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 0]);
  });

  test('a Retry-After HTTP-date is read on its clock: 7 s after its Date, not 10 minutes and 7 s (a stop)', async () => {
    const { client, calls, elapsed } = harness([
      {
        status: 429,
        headers: {
          date: new Date(NOW + 600_000).toUTCString(),
          'retry-after': new Date(NOW + 607_000).toUTCString(),
        },
      },
      { status: 200 },
    ]);
    await client.send(list);
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 7250]);
  });
});

describe('the client on a 429', () => {
  test('never retries before Retry-After, and adds backoff and jitter', async () => {
    const { client, calls, elapsed } = harness([
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 200 },
    ]);
    const exchange = await client.send(list);
    expect(exchange.response?.status).toBe(200);
    // Each retry after its Retry-After: 3 s Retry-After + 250 ms jitter; then max(1 s Retry-After, 1 s backoff) + 250 ms jitter.
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 3250, 4500]);
  });

  test('waits for a Retry-After given as an HTTP-date too', async () => {
    const at = new Date(1_800_000_000_000 + 7000).toUTCString();
    const { client, calls, elapsed } = harness([
      { status: 429, headers: { 'retry-after': at } },
      { status: 200 },
    ]);
    await client.send(list);
    expect(calls.map((call) => elapsed(call.at))).toEqual([0, 7250]);
    expect(retryAfterMs('soon', 0)).toBe(0);
    expect(retryAfterMs(' 3 ', 0)).toBe(3000);
  });

  test('backs off exponentially when the 429 has no Retry-After', async () => {
    const { client, sleeps } = harness([{ status: 429 }, { status: 429 }, { status: 429 }, { status: 200 }]);
    await client.send(list);
    expect(sleeps).toEqual([750, 1250, 2250]);
  });

  test('stops with a clear message after a few 429s in a row, far below a ban', async () => {
    const { client, calls } = harness([{ status: 429, headers: { 'retry-after': '1' } }]);
    const error = await client.send(list).catch((cause: unknown) => cause);
    expect(error).toBeInstanceOf(ContractAbort);
    expect((error as ContractAbort).code).toBe('ban_risk');
    expect((error as ContractAbort).message).toMatch(/rather than risk the key being banned/);
    // The API bans a key after more than 10 requests while limited.
    expect(calls).toHaveLength(4);
  });

  test('stops at once when Retry-After is longer than it will wait', async () => {
    const { client, calls } = harness([{ status: 429, headers: { 'retry-after': '3600' } }]);
    await expect(client.send(list)).rejects.toMatchObject({ code: 'rate_limit_exhausted', encoded: false });
    expect(calls).toHaveLength(1);
  });

  test('a 429 that came gzip-encoded: the stop says so, so that its curl line asks for gzip too', async () => {
    const { client } = harness([
      { status: 429, headers: { 'retry-after': '3600', 'content-encoding': 'gzip' } },
    ]);
    await expect(client.send(list)).rejects.toMatchObject({ code: 'rate_limit_exhausted', encoded: true });
    const { client: again } = harness([
      { status: 429, headers: { 'retry-after': '1', 'content-encoding': 'gzip' } },
    ]);
    await expect(again.send(list)).rejects.toMatchObject({ code: 'ban_risk', encoded: true });
  });

  test('a 429 that says the key is banned: the message says so, and until when, not that it avoids a ban', async () => {
    const { client } = harness([
      {
        status: 429,
        headers: { 'retry-after': '300' },
        body: '{"code":"api_key_banned","message":"Banned.","status":429}',
      },
    ]);
    const error = await client.send(list).catch((cause: unknown) => cause);
    expect((error as ContractAbort).code).toBe('rate_limit_exhausted');
    expect((error as ContractAbort).message).toBe(
      'The server answered 429 api_key_banned (GET http://staging.example/v1/pets): it says the key is banned, ' +
        'with Retry-After: 300. Stopping; run again after 2027-01-15T08:05:00.000Z, when the ban ends.',
    );
  });

  test('hands a 429 back untouched when asked not to retry (the rate-limit probe)', async () => {
    const { client, calls } = harness([{ status: 429, headers: { 'retry-after': '5' } }]);
    const exchange = await client.send(list, { retry: false });
    expect(exchange.response?.status).toBe(429);
    expect(calls).toHaveLength(1);
  });
});

describe('the client keeps its word', () => {
  test('--read-only sends no POST', async () => {
    const { client, calls } = harness([{ status: 201 }], { readOnly: true });
    const post: Outgoing = { operationId: 'createPet', method: 'POST', path: '/pets', body: '{}' };
    await expect(client.send(post)).rejects.toMatchObject({ code: 'read_only_violation' });
    expect(calls).toHaveLength(0);
  });

  test('sends the key as a bearer token but records it as $API_KEY', async () => {
    const { client, calls } = harness([{ status: 200 }]);
    const exchange = await client.send(list);
    expect(new Headers(calls[0]?.init?.headers).get('authorization')).toBe('Bearer secret-key-123');
    expect(exchange.request.headers.authorization).toBe('Bearer $API_KEY');
    expect(JSON.stringify(exchange)).not.toContain('secret-key-123');
  });

  test('a request that times out is an exchange without a response, not a crash', async () => {
    const fetch = (async () => {
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    }) as typeof globalThis.fetch;
    const { client } = harness([], { fetch });
    const exchange = await client.send(list);
    expect(exchange.response).toBeNull();
    expect(exchange.failure).toEqual({ kind: 'timeout', message: 'no response within 1000 ms' });
  });
});

describe('an operation that never answers', () => {
  test('after 3 of its requests in a row time out while others answer, it is no longer sent: its next request fails at once, saying why', async () => {
    const getPet: Outgoing = { operationId: 'getPet', method: 'GET', path: '/pets/1' };
    const timeout = () =>
      Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    const sent: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      const url = String(input);
      sent.push(url);
      if (url.endsWith('/pets/1')) throw timeout();
      return new Response('[]', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof globalThis.fetch;
    const { client } = harness([], { fetch });
    await client.send(list);
    for (let i = 0; i < 3; i += 1) {
      const exchange = await client.send(getPet);
      expect(exchange.failure?.message).toBe('no response within 1000 ms');
    }
    const sentBefore = sent.length;
    const muted = await client.send(getPet);
    expect(sent.length).toBe(sentBefore);
    expect(muted.response).toBeNull();
    expect(muted.failure?.message).toBe(
      'not sent: getPet got no response to 3 requests in a row (each waited the --timeout, 1000 ms) while the target answered others',
    );
    // The other operations are still sent.
    expect((await client.send(list)).response?.status).toBe(200);
  });
});

describe('an operation whose connection fails', () => {
  const getPet: Outgoing = { operationId: 'getPet', method: 'GET', path: '/pets/1' };
  /** fetch failing as undici's does when the connection closes or the answer is not HTTP. */
  const dropped = (message: string, code?: string) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(message), code ? { code } : {}) });
  /** A target that answers everything but what `fails` picks, which it drops as `error` says. */
  const target = (fails: (url: string, nth: number) => Error | undefined) => {
    const sent: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      const url = String(input);
      sent.push(url);
      const error = fails(url, sent.filter((s) => s === url).length);
      if (error !== undefined) throw error;
      return new Response('[]', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof globalThis.fetch;
    return { sent, fetch };
  };

  test('after 3 of its requests in a row lose their connection, it is no longer sent, nor recorded, and waits no more', async () => {
    const { sent, fetch } = target((url) =>
      url.endsWith('/pets/1') ? dropped('other side closed', 'UND_ERR_SOCKET') : undefined,
    );
    const { client, sleeps, exchanges } = harness([], { fetch });
    await client.send(list);
    for (let i = 0; i < 3; i += 1) {
      const exchange = await client.send(getPet);
      expect(exchange.failure?.message).toBe('no response: other side closed');
    }
    // Each GET tried three times, 500 ms apart, to tell a dropped request from a target gone.
    expect(sent.filter((url) => url.endsWith('/pets/1'))).toHaveLength(9);
    expect(sleeps).toEqual([500, 500, 500, 500, 500, 500]);
    const recorded = exchanges.length;
    const muted = await client.send(getPet);
    expect(sent.filter((url) => url.endsWith('/pets/1'))).toHaveLength(9);
    expect(sleeps).toHaveLength(6);
    expect(exchanges).toHaveLength(recorded);
    expect(muted.response).toBeNull();
    expect(muted.failure).toEqual({
      kind: 'not_sent',
      message:
        'not sent: getPet got no whole response to 3 requests in a row (the last: no response: other side closed)',
    });
    expect(client.muted.get('getPet')).toBe(
      'got no whole response to 3 requests in a row (the last: no response: other side closed)',
    );
    // The other operations are still sent.
    expect((await client.send(list)).response?.status).toBe(200);
  });

  test('a request it drops between answered ones does not stop it: the count is of requests in a row', async () => {
    const { fetch } = target((url) => (url.endsWith('/pets/7') ? dropped('other side closed') : undefined));
    const { client } = harness([], { fetch });
    await client.send(list);
    for (let i = 0; i < 4; i += 1) {
      expect((await client.send({ ...getPet, path: '/pets/7' })).failure?.kind).toBe('network');
      expect((await client.send(getPet)).response?.status).toBe(200);
    }
    expect(client.muted.size).toBe(0);
  });

  test('timeouts and dropped connections count together', async () => {
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), {
      name: 'TimeoutError',
    });
    const { fetch } = target((url, nth) =>
      url.endsWith('/pets/1') ? (nth === 1 ? timeout : dropped('other side closed')) : undefined,
    );
    const { client } = harness([], { fetch });
    await client.send(list);
    for (let i = 0; i < 3; i += 1) await client.send(getPet);
    expect((await client.send(getPet)).failure?.kind).toBe('not_sent');
  });

  test("an answer Node's HTTP client refuses (a control character in a header value) is the answer's fault, and counts", async () => {
    const { fetch } = target((url) =>
      url.endsWith('/pets/1')
        ? dropped(
            'Response does not match the HTTP/1.1 protocol (Invalid header value char)',
            'HPE_INVALID_HEADER_TOKEN',
          )
        : undefined,
    );
    const { client } = harness([], { fetch });
    await client.send(list);
    const exchange = await client.send(getPet);
    expect(exchange.failure).toEqual({
      kind: 'network',
      code: 'HPE_INVALID_HEADER_TOKEN',
      message:
        "an answer Node's HTTP client refuses, not valid HTTP/1.1: Response does not match the HTTP/1.1 protocol (Invalid header value char)",
    });
    for (let i = 0; i < 2; i += 1) await client.send(getPet);
    expect((await client.send(getPet)).failure?.kind).toBe('not_sent');
  });
});
