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

export function harExchangeOf(exchange: Exchange, endedMs: number): HarExchange {
  const { request, response, failure } = exchange;
  return {
    startedMs: endedMs - exchange.durationMs,
    method: request.method,
    url: request.url,
    requestHeaders: request.headers,
    requestBody: request.body,
    // A request that got no answer is shown as HAR shows one: status 0, with why in the comment.
    status: response?.status ?? 0,
    responseHeaders: response?.headers ?? {},
    responseBody: response?.body,
    timeMs: exchange.durationMs,
    comment:
      failure === undefined
        ? `operation ${exchange.operationId}`
        : `operation ${exchange.operationId}: no response (${failure.kind}: ${failure.message})`,
  };
}

export function recordContractHar(version: string): ContractHar {
  const exchanges: HarExchange[] = [];
  return {
    add(exchange, endedMs) {
      exchanges.push(harExchangeOf(exchange, endedMs));
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
