// `petkit contract --har FILE`: every exchange of the run, as the suite recorded it (the key already
// shown as $API_KEY), written as a HAR 1.2 file that a browser's devtools open. The HAR itself is the
// contract module's (openapi/har.ts), as for `petkit mock --har`; this file gathers and writes.
import type { Exchange } from '../contract-tests/index.js';
import { buildHar, type HarExchange } from '../openapi/index.js';
import { writeOut } from './write-whole.js';

export interface ContractHar {
  /** Keeps one exchange, seen when it ended (`endedMs`). */
  add(exchange: Exchange, endedMs: number): void;
  readonly count: number;
  /** Writes the file whole (by rename), or into a device (`/dev/null`). */
  write(file: string): void;
}

/**
 * The most characters of response bodies a HAR keeps whole, in all: a run sends hundreds of requests,
 * each answer read up to 4 MiB (client.ts), and a HAR of them all would pass what one string can hold
 * (JSON.stringify's RangeError: the HAR lost) and hold gigabytes meanwhile.
 */
export const HAR_BODY_BUDGET = 32 * 1024 * 1024;
/** What a HAR keeps of a body once the budget is spent: its first characters. */
export const HAR_BODY_CUT = 4096;

/** The first `length` characters of `text`, never half of a surrogate pair, as a string of their own (not a view that keeps `text`). */
function startOf(text: string, length: number): string {
  const end = /[\ud800-\udbff]/.test(text.charAt(length - 1)) ? length - 1 : length;
  return Buffer.from(text.slice(0, end), 'utf16le').toString('utf16le');
}

export function harExchangeOf(exchange: Exchange, endedMs: number, cutTo?: number): HarExchange {
  const { request, response, failure } = exchange;
  const body = response?.body;
  const cut = body !== undefined && cutTo !== undefined && body.length > cutTo;
  const why = `operation ${exchange.operationId}`;
  return {
    startedMs: endedMs - exchange.durationMs,
    method: request.method,
    url: request.url,
    requestHeaders: request.headers,
    requestBody: request.body,
    // A request that got no answer is shown as HAR shows one: status 0, with why in the comment.
    status: response?.status ?? 0,
    responseHeaders: response?.headers ?? {},
    responseBody: cut ? startOf(body, cutTo) : body,
    ...(cut ? { responseBytes: Buffer.byteLength(body) } : {}),
    timeMs: exchange.durationMs,
    comment:
      failure !== undefined
        ? `${why}: no response (${failure.kind}: ${failure.message})`
        : cut
          ? `${why}; body cut to its first ${cutTo} characters of ${body.length}: a HAR keeps bodies whole up to ${HAR_BODY_BUDGET / 1024 / 1024} MiB of them in all`
          : why,
  };
}

export function recordContractHar(version: string): ContractHar {
  const exchanges: HarExchange[] = [];
  /** Characters of bodies kept whole so far: past HAR_BODY_BUDGET, each is cut to HAR_BODY_CUT. */
  let kept = 0;
  return {
    add(exchange, endedMs) {
      const length = exchange.response?.body.length ?? 0;
      const whole = kept + length <= HAR_BODY_BUDGET;
      if (whole) kept += length;
      exchanges.push(harExchangeOf(exchange, endedMs, whole ? undefined : HAR_BODY_CUT));
    },
    get count() {
      return exchanges.length;
    },
    write(file) {
      const har = buildHar(exchanges, { name: 'petkit contract', version });
      writeOut(file, `${JSON.stringify(har, null, 2)}\n`);
    },
  };
}
