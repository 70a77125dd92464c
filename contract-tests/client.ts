// The suite's HTTP client: global fetch with a timeout, paced under a requests-per-minute budget,
// honouring Retry-After with exponential backoff and jitter, and stopping before it could get the key
// banned. The clock, sleep, randomness and fetch are injected, so tests never wait for real.
import { isUtf8 } from 'node:buffer';
import { maxHeaderSize } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { bodyBreak, headerInteger } from '../openapi/index.js';
import { ContractAbort, interrupted, stopped, TargetSilent } from './errors.js';
import { ACCEPT_ENCODING, type Exchange, type RequestRecord } from './exchange.js';
import type { Connect } from './http/connect.js';
import { duplicateName } from './http/duplicate-names.js';
import type { FramingFault } from './http/framing.js';
import { openWire, type WireConnection, wireCap } from './http/wire.js';
import type { CredentialClass } from './model/types.js';
import type { NormalizedOptions } from './options.js';
import { swapCase } from './redaction.js';
import { type Bucket, createWindowSpender, requestBudgetOf } from './window-spender.js';

/**
 * How a request authenticates: the key as a bearer token, none, a wrong key, the key under `Token`,
 * the key under a lower-case `bearer`, the key with the case of its letters changed.
 */
export type Auth = 'key' | 'none' | 'wrong' | 'scheme' | 'lower-scheme' | 'key-case';

/** What each fixed Auth means to a server that keeps the contract. */
const CREDENTIAL_OF: Readonly<Record<Auth, CredentialClass>> = {
  key: 'key',
  'lower-scheme': 'key',
  none: 'none',
  wrong: 'invalid',
  'key-case': 'invalid',
  scheme: 'other-scheme',
};

/**
 * An Authorization made from the key (derived spellings): `header` builds the value sent, `shell` is
 * what records and scripts show (`Bearer ${API_KEY}x`), never the value itself.
 */
export interface Authorization {
  header(key: string): string | undefined;
  readonly credential: CredentialClass;
  /** The header value as POSIX sh words over $API_KEY. */
  readonly shell: string;
  /** In a few words, for a report: `the key with an x appended`. */
  readonly what: string;
}

export interface Outgoing {
  readonly operationId: string;
  readonly method: string;
  /** Under the base URL: `/pets/42`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /**
   * A query string appended verbatim after `query` (without `?`): URLSearchParams would re-encode
   * `%32%30` and cannot repeat a name.
   */
  readonly rawQuery?: string;
  /** How to authenticate: the key as a bearer token (default), none, a wrong key, the key under `Token`. */
  readonly auth?: Auth;
  /** A derived Authorization; wins over `auth`. */
  readonly authorization?: Authorization;
  readonly contentType?: string;
  readonly body?: string;
}

/** What the client takes of the run's options, and where each exchange goes. */
export type ClientOptions = Pick<
  NormalizedOptions,
  | 'baseUrl'
  | 'apiKey'
  | 'redactor'
  | 'timeoutMs'
  | 'maxRpm'
  | 'readOnly'
  | 'maxWaitMs'
  | 'maxRetries'
  | 'backoffBaseMs'
  | 'fetch'
  | 'now'
  | 'sleep'
  | 'random'
> & {
  /** Aborted: nothing more is sent, one in flight is given up (the `interrupted` ContractAbort). */
  readonly signal?: AbortSignal | undefined;
  /** Every exchange, a 429 that was then retried included. */
  readonly onExchange: (exchange: Exchange) => void;
  /** No wait for a window may end past it (the run's time budget): OutOfTime. Default: none. */
  readonly deadlineMs?: number;
  /** A wait for a window's reset begins: whose window, and when it ends. */
  readonly onWait?: (bucket: Bucket, untilMs: number) => void;
  /** Opens a raw connection to the target (sendOnWire); without it, sendOnWire sends nothing. */
  readonly connect?: Connect | undefined;
};

/** A request of sendOnWire: `close` sends it with Connection: close. */
export type WireOutgoing = Outgoing & { readonly close?: boolean };

/** One request sendOnWire sent, and what came for it on the wire. */
export interface WireStep {
  /** As every other exchange (judged, in the HAR); its response null when no message could be read. */
  readonly exchange: Exchange;
  /** How the answer's framing breaks RFC 9112 (its words with the key hidden). */
  readonly fault?: FramingFault;
  /** Why nothing can be said of its framing: no answer in time, a failure, a cap (fetch's requests say it). */
  readonly unjudged?: string;
  /** The message's bytes as they came, for comparing with the one before. */
  readonly raw?: Buffer;
  /** Bytes that came after the message: before the next request left, or (the last) before the close. */
  readonly after: Buffer;
  /** Their first 4 KiB as latin1 text (a character a byte), the key hidden: what a report may show. */
  readonly afterText: string;
  /** Sent with Connection: close and answered: whether the target closed within the --timeout. */
  readonly closed?: boolean;
  /** Sent on the connection of the request before it. */
  readonly reused: boolean;
}

export interface Client {
  /** Sends, paced; a 429 is retried after Retry-After (unless `retry` is false). */
  send(outgoing: Outgoing, options?: { retry?: boolean; pace?: boolean }): Promise<Exchange>;
  /** --max-rpm, else the key's X-RateLimit-Limit (the lowest seen; undefined until learnt). */
  readonly maxRpm: number | undefined;
  readonly requests: number;
  /**
   * Operations no longer sent (OPERATION_SILENT_AFTER), each with why, in words that follow its id:
   * `got no whole response to 3 requests in a row (the last: …)`.
   */
  readonly muted: ReadonlyMap<string, string>;
  /**
   * Operations an answer of which Node's fetch refused as not HTTP/1.1 (llhttp's HPE_* codes) or would
   * not take (undici's refusals): that answer is already a finding, in fetch's words.
   */
  readonly refused: ReadonlySet<string>;
  /** 2 × (limit − margin) of the key's window, once its limit is known. */
  requestBudget(): number | undefined;
  /** Moves the deadline for waits (the probes lift it). */
  setDeadline(deadlineMs: number): void;
  /**
   * Sends GETs one after another on one raw connection (a new one when the target ends it), each paced,
   * counted and recorded as `send` does, the last kept to the close: what came, byte for byte, for
   * the framing to be judged (http/framing.ts). Nothing without a `connect`; nothing of an operation
   * no longer sent. Not retried on a 429.
   */
  sendOnWire(outgoings: readonly WireOutgoing[]): Promise<readonly WireStep[]>;
}

/**
 * Requests in a row that got no answer within the timeout, from a target that answered before, after
 * which the target is taken to have stopped answering: waiting out every request left would take the
 * run's whole budget of them (96 × 10 s by default), and say nothing more.
 */
export const SILENT_AFTER = 3;

/**
 * Requests of one operation in a row that got no whole answer (none within the timeout, a connection
 * closed or reset before the body's end, an answer Node's HTTP client refuses) while the target answered
 * others: the operation is taken to be broken, and its later requests are not sent (each would wait the
 * --timeout, or a dropped GET its two tries again, and say nothing more); they fail at once, saying so,
 * and the run goes on with the other operations. Timeouts and transport failures count together: an
 * operation that times out once and drops the connection twice answers no better. A request is one
 * strike however many times it was tried (a dropped GET is sent three times): one request the target
 * drops, for one id, does not stop the others.
 */
export const OPERATION_SILENT_AFTER = 3;

/** What the client sends to tell a target that stopped answering from one that does not answer one request. */
const LIVENESS_PROBE: Outgoing = { operationId: 'listPets', method: 'GET', path: '/pets' };

/** The longest window the API has is a day (and a few minutes of clock skew). */
const LONGEST_WINDOW_MS = 24 * 3600_000 + 300_000;

/**
 * How far a target's clock may read from this machine's, by its Date (whole seconds), and still be
 * taken as this machine's. Past it, and within a day (a Date further off is no clock, but a broken
 * header), its X-RateLimit-Reset and a Retry-After HTTP-date are read on its clock: a target 10 minutes
 * fast would otherwise seem to hold the key for 10 minutes more (a stop, exit 2), and one 10 minutes
 * slow to have reset a window it still counts (a 429).
 */
const CLOCK_TOLERANCE_MS = 5_000;

/** A wrong key that no server can have issued, yet shaped like one. */
export const WRONG_KEY = 'petkit-contract-wrong-key-0000000000';

/**
 * How long a Retry-After asks for, in ms: delay-seconds (what this API sends) or an HTTP-date (what
 * RFC 9110 also allows, so a server that sends one is still waited for). 0 when absent or unreadable.
 */
export function retryAfterMs(raw: string | undefined, nowMs: number): number {
  if (raw === undefined) return 0;
  const value = raw.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? 0 : Math.max(0, date - nowMs);
}

/** The most of a response body the suite reads: no response of this API comes near it. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/**
 * A response's body as text (UTF-8, U+FFFD for each byte that is not), read to its end or to
 * MAX_RESPONSE_BYTES, past which reading stops; and whether its bytes were UTF-8.
 */
async function readBody(response: Response): Promise<{ text: string; utf8: boolean; size: number }> {
  if (response.body === null) return { text: '', utf8: true, size: 0 };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new Error(
        `the response body is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB: not read further`,
      );
    }
    chunks.push(value);
  }
  const bytes = Buffer.concat(chunks);
  return { text: bytes.toString('utf8'), utf8: isUtf8(bytes), size: bytes.byteLength };
}

/**
 * A body read off the wire, its content coding taken off as fetch takes it off (gzip, x-gzip, deflate
 * with or without its zlib wrapper, br), to at most MAX_RESPONSE_BYTES; an Error when it cannot be.
 */
function decoded(body: Buffer, coding: string | undefined): { text: string; utf8: boolean; size: number } {
  const limit = { maxOutputLength: MAX_RESPONSE_BYTES };
  const codings = (coding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  let bytes = body;
  for (const c of codings) {
    if (c === 'gzip' || c === 'x-gzip') bytes = gunzipSync(bytes, limit);
    else if (c === 'br') bytes = brotliDecompressSync(bytes, limit);
    else if (c === 'deflate') {
      try {
        bytes = inflateSync(bytes, limit);
      } catch {
        bytes = inflateRawSync(bytes, limit);
      }
    } else throw new Error(`a content coding it cannot decode: ${c}`);
  }
  return { text: bytes.toString('utf8'), utf8: isUtf8(bytes), size: bytes.byteLength };
}

/** Whether a body is JSON (JSON.parse's own pass, faster than finding where one is not). */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whose window a request spends: with the key (any spelling of it) the key's, else the address's. */
export function bucketOf(outgoing: Outgoing): Bucket {
  const credential = outgoing.authorization?.credential ?? CREDENTIAL_OF[outgoing.auth ?? 'key'];
  return credential === 'key' ? 'key' : 'anonymous';
}

export function createClient(options: ClientOptions): Client {
  let maxRpm = options.maxRpm;
  let nextAt = 0;
  let requests = 0;
  let answered = 0;
  const windows = createWindowSpender({
    now: options.now,
    sleep: options.sleep,
    random: options.random,
    deadlineMs: options.deadlineMs ?? Number.POSITIVE_INFINITY,
    maxWaitMs: options.maxWaitMs,
    backoffBaseMs: options.backoffBaseMs,
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
  });
  let started = 0;
  let inFlight = 0;
  /** Requests in a row that got no answer within the timeout; a response puts it back to 0. */
  let unanswered = 0;
  let silent = false;
  /**
   * By operation: its requests in a row that got no whole answer, and how many of them timed out; a
   * response read to its end removes it.
   */
  const strikesOf = new Map<string, { requests: number; timeouts: number; heads: number }>();
  /** Operations no longer sent, with why (OPERATION_SILENT_AFTER). */
  const mutedOf = new Map<string, string>();
  const refusedOf = new Set<string>();
  /**
   * How far the target's clock reads ahead of ours (CLOCK_TOLERANCE_MS), by its Date: 0 while it is
   * within the tolerance. Kept until an answer says otherwise by more than the tolerance, so that the
   * answers of one window, their Dates a second apart, still name one reset.
   */
  let skewMs = 0;
  /** One timeline of sends and answers: an answer below a request's sentSeq came before it left. */
  let tick = 0;
  const { redactor } = options;

  const authorization = (auth: Auth): string | undefined => {
    switch (auth) {
      case 'key':
        return `Bearer ${options.apiKey}`;
      case 'wrong':
        return `Bearer ${WRONG_KEY}`;
      case 'scheme':
        return `Token ${options.apiKey}`;
      case 'lower-scheme':
        return `bearer ${options.apiKey}`;
      case 'key-case':
        return `Bearer ${swapCase(options.apiKey)}`;
      case 'none':
        return undefined;
    }
  };

  /**
   * Paced: the window's turn (the spender), then an explicit --max-rpm's even interval. Unpaced (the
   * probes, which spend a window on purpose): straight away, and the window is not reserved.
   */
  const waitYourTurn = async (pace: boolean, bucket: Bucket): Promise<boolean> => {
    if (!pace) return false;
    await windows.acquire(bucket);
    const wait = nextAt - options.now();
    if (wait > 0) await options.sleep(wait);
    return true;
  };

  /** What an answer's headers say of the key's window and the target's clock (the pace follows). */
  const learn = (bucket: Bucket, responseHeaders: Record<string, string>, reserved: boolean): void => {
    const limit = headerInteger(responseHeaders['x-ratelimit-limit']);
    const remaining = headerInteger(responseHeaders['x-ratelimit-remaining']);
    const reset = headerInteger(responseHeaders['x-ratelimit-reset']);
    // Only the key's own responses say what its window is: without a (valid) key the server counts
    // the request elsewhere (the mock: an anonymous bucket per address), which has its own.
    // The headers describe whichever window has fewer requests left: keep the tightest limit seen.
    if (bucket === 'key' && options.maxRpm === undefined && limit !== undefined && limit > 0) {
      maxRpm = Math.min(maxRpm ?? limit, limit);
    }
    const dateMs = responseHeaders.date === undefined ? Number.NaN : Date.parse(responseHeaders.date);
    if (Number.isFinite(dateMs)) {
      // An answer a cache kept was dated when it was made: its Age (RFC 9111 §5.1) says how long ago.
      const measured = dateMs + (headerInteger(responseHeaders.age) ?? 0) * 1000 - options.now();
      if (Math.abs(measured - skewMs) > CLOCK_TOLERANCE_MS)
        skewMs =
          Math.abs(measured) > CLOCK_TOLERANCE_MS && Math.abs(measured) <= LONGEST_WINDOW_MS ? measured : 0;
    }
    // The Reset on our clock: a time on the target's.
    const resetMs = reset === undefined ? undefined : reset * 1000 - skewMs;
    // A Reset more than a day away is no window this API has (a finding of its own, in milliseconds
    // perhaps): it is not waited for; a 429's Retry-After still is.
    const plausible = resetMs !== undefined && resetMs - options.now() <= LONGEST_WINDOW_MS;
    const windowLimit = limit !== undefined && limit > 0 ? limit : remaining;
    windows.learn(
      bucket,
      remaining !== undefined && resetMs !== undefined && plausible && windowLimit !== undefined
        ? { limit: windowLimit, remaining, resetMs }
        : undefined,
      reserved,
    );
  };

  /** A response as the run records it: the body as text, the key hidden, where it stops being JSON. */
  const responseRecord = (
    status: number,
    responseHeaders: Record<string, string>,
    body: { text: string; utf8: boolean; size: number },
  ): NonNullable<Exchange['response']> => {
    const shown = redactor.response(body.text);
    // Where it stops being JSON, read in the body as it came, shown from the recorded one (the key hidden).
    const json = parses(body.text);
    const notJson = json ? undefined : bodyBreak(body.text, shown, body.size);
    // An object naming a member twice: said with its name and place as the recorded body shows them.
    const twice = json ? duplicateName(body.text) : undefined;
    const duplicate =
      twice === undefined
        ? undefined
        : { pointer: redactor.response(twice.pointer), name: redactor.response(twice.name) };
    return {
      status,
      headers: responseHeaders,
      body: shown,
      ...(body.utf8 ? {} : { notUtf8: true as const }),
      ...(notJson === undefined ? {} : { notJson }),
      ...(duplicate === undefined ? {} : { duplicateName: duplicate }),
    };
  };

  /** A request as it is sent (the key in it) and as it is recorded (the key as $API_KEY). */
  const prepare = (outgoing: Outgoing) => {
    const url = new URL(options.baseUrl.replace(/\/+$/, '') + outgoing.path);
    for (const [name, value] of Object.entries(outgoing.query ?? {})) url.searchParams.set(name, value);
    if (outgoing.rawQuery !== undefined)
      url.search = [url.search.replace(/^\?/, ''), outgoing.rawQuery].filter((part) => part !== '').join('&');
    const headers: Record<string, string> = { accept: 'application/json' };
    const derived = outgoing.authorization;
    const auth =
      derived === undefined ? authorization(outgoing.auth ?? 'key') : derived.header(options.apiKey);
    if (auth !== undefined) headers.authorization = auth;
    if (outgoing.contentType !== undefined) headers['content-type'] = outgoing.contentType;
    const recorded = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redactor.request(v)]));
    // Sent as fetch sends it anyway, but named, so that the curl line of an answer that came encoded
    // asks for the same (exchange.ts toCurl); not recorded: every request carries it.
    headers['accept-encoding'] = ACCEPT_ENCODING;
    // A derived credential is recorded as its shell form, never as the value made of the key.
    if (derived !== undefined && auth !== undefined) recorded.authorization = derived.shell;
    const credential = derived?.credential ?? CREDENTIAL_OF[outgoing.auth ?? 'key'];
    const request: RequestRecord = {
      method: outgoing.method,
      url: redactor.request(url.toString()),
      headers: recorded,
      ...(outgoing.body === undefined ? {} : { body: redactor.request(outgoing.body) }),
    };
    return { url, headers, credential, request };
  };

  const once = async (outgoing: Outgoing, reserved: boolean): Promise<Exchange> => {
    const bucket = bucketOf(outgoing);
    const { url, headers, credential, request } = prepare(outgoing);
    const startedMs = options.now();
    /** The exchange of a request that got no response (or was not sent), and why. */
    const unansweredExchange = (sentSeq: number, failure: Exchange['failure']): Exchange => ({
      operationId: outgoing.operationId,
      sentSeq,
      answeredSeq: ++tick,
      credential,
      request,
      response: null,
      ...(failure === undefined ? {} : { failure }),
      durationMs: options.now() - startedMs,
    });
    const muted = mutedOf.get(outgoing.operationId);
    if (muted !== undefined) {
      return unansweredExchange(++tick, {
        kind: 'not_sent',
        message: `not sent: ${outgoing.operationId} ${muted}`,
      });
    }
    // Told to stop (after the waits before it): nothing more is sent; one in flight is given up.
    const stop = options.signal;
    if (stop !== undefined && stopped(stop)) throw interrupted(stop);
    // The next request may go one interval after this one started; requests sent at once (concurrent
    // creates) each take an interval, so a burst is paid for by the wait after it.
    const paced = () => {
      if (options.maxRpm !== undefined) nextAt = Math.max(nextAt, startedMs) + 60_000 / options.maxRpm;
    };
    requests += 1;
    const mine = ++started;
    const sentSeq = ++tick;
    const busy = inFlight > 0;
    inFlight += 1;
    const overlapped = () => busy || started !== mine;
    /** The status of the answer once its head came: a failure after it is its body's. */
    let status: number | undefined;
    /** Whether that head named a Content-Encoding: a body it then failed to decode was in it. */
    let encoded = false;
    try {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const response = await options.fetch(url, {
        method: outgoing.method,
        headers,
        ...(outgoing.body === undefined ? {} : { body: outgoing.body }),
        redirect: 'manual',
        signal: stop === undefined ? timeout : AbortSignal.any([timeout, stop]),
      });
      status = response.status;
      encoded = response.headers.has('content-encoding');
      const body = await readBody(response);
      inFlight -= 1;
      answered += 1;
      unanswered = 0;
      strikesOf.delete(outgoing.operationId);
      const responseHeaders: Record<string, string> = {};
      // The name too: a server may echo the key into one (`x-seen-<key>: 1`), and the HAR shows every name.
      response.headers.forEach((value, name) => {
        responseHeaders[redactor.response(name.toLowerCase())] = redactor.response(value);
      });
      learn(bucket, responseHeaders, reserved);
      paced();
      return {
        operationId: outgoing.operationId,
        sentSeq,
        answeredSeq: ++tick,
        credential,
        request,
        response: responseRecord(response.status, responseHeaders, body),
        durationMs: options.now() - startedMs,
        ...(overlapped() ? { overlapped: true } : {}),
      };
    } catch (cause) {
      inFlight -= 1;
      // Given up because the run was told to stop: no answer to judge, and no finding.
      if (stop !== undefined && stopped(stop)) throw interrupted(stop);
      windows.learn(bucket, undefined, reserved);
      paced();
      const timeout =
        cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
      const reason = cause instanceof Error ? failureReason(cause) : String(cause);
      const code = cause instanceof Error ? (cause.cause as { code?: unknown } | undefined)?.code : undefined;
      if (timeout) unanswered += 1;
      // llhttp's codes (HPE_INVALID_HEADER_TOKEN for a control character in a header value): the
      // target answered, in bytes that are not HTTP/1.1.
      const unparsable = status === undefined && typeof code === 'string' && code.startsWith('HPE_');
      // undici's own refusals of what came: the target answered too, in a way Node's client does not take.
      const refusal = status === undefined ? refusedAnswer(code, reason) : undefined;
      // Its head or its body (a chunk size that is not hexadecimal): either way fetch's finding says it.
      if ((typeof code === 'string' && code.startsWith('HPE_')) || refusal !== undefined)
        refusedOf.add(outgoing.operationId);
      return unansweredExchange(
        sentSeq,
        timeout
          ? {
              kind: 'timeout',
              // The head came, then the body did not end: the target answered, in part.
              ...(status === undefined
                ? { message: `no response within ${options.timeoutMs} ms` }
                : {
                    message: `answered ${status}, but its body did not end within the --timeout (${options.timeoutMs} ms)`,
                    status,
                  }),
            }
          : {
              kind: 'network',
              // Node's own words may quote what was sent (an invalid header value quotes it whole).
              message: unparsable
                ? `an answer Node's HTTP client refuses, not valid HTTP/1.1: ${redactor.response(reason)}`
                : refusal !== undefined
                  ? `an answer Node's HTTP client refuses: ${refusal}`
                  : status === undefined
                    ? `no response: ${redactor.response(reason)}`
                    : `answered ${status}, but its body could not be read: ${redactor.response(reason)}`,
              ...(typeof code === 'string' ? { code } : {}),
              ...(status === undefined ? {} : { status }),
              ...(encoded ? { encoded: true as const } : {}),
              ...(refusal === undefined ? {} : { refused: true as const }),
            },
      );
    }
  };

  /**
   * One more request of an operation that got no whole answer; at OPERATION_SILENT_AFTER in a row, the
   * operation is no longer sent.
   */
  const strike = (operationId: string, failure: NonNullable<Exchange['failure']>): void => {
    const before = strikesOf.get(operationId) ?? { requests: 0, timeouts: 0, heads: 0 };
    const timedOut = failure.kind === 'timeout';
    const now = {
      requests: before.requests + 1,
      timeouts: before.timeouts + (timedOut ? 1 : 0),
      // Timeouts after the head came: the body did not end.
      heads: before.heads + (timedOut && failure.status !== undefined ? 1 : 0),
    };
    strikesOf.set(operationId, now);
    if (now.requests < OPERATION_SILENT_AFTER) return;
    const waited = `each waited the --timeout, ${options.timeoutMs} ms`;
    mutedOf.set(
      operationId,
      now.timeouts < now.requests
        ? `got no whole response to ${now.requests} requests in a row (the last: ${failure.message})`
        : now.heads === 0
          ? `got no response to ${now.requests} requests in a row (${waited}) while the target answered others`
          : now.heads === now.requests
            ? `got no whole response to ${now.requests} requests in a row (${waited}, its body unended) while the target answered others`
            : `got no whole response to ${now.requests} requests in a row (${waited}; ${now.heads} of them a head, then a body that did not end) while the target answered others`,
    );
  };

  /**
   * After a request that got no answer in time: listPets, until SILENT_AFTER requests in a row went
   * unanswered (the target stopped answering: TargetSilent) or one is answered (the request's own
   * finding, then). Creates sent at once may reach SILENT_AFTER together, with no listPets.
   */
  const stillAnswering = async (exchange: Exchange): Promise<void> => {
    while (unanswered < SILENT_AFTER && !silent) {
      // listPets no longer sent: the next requests that time out tell, each counting in `unanswered`.
      if (mutedOf.has(LIVENESS_PROBE.operationId)) return;
      const reserved = await waitYourTurn(true, 'key');
      const probe = await once(LIVENESS_PROBE, reserved);
      options.onExchange(probe);
      if (probe.failure?.kind !== 'timeout') return;
    }
    silent = true;
    throw new TargetSilent(
      `the target stopped answering: no response to ${SILENT_AFTER} requests in a row ` +
        `(each waited the --timeout, ${options.timeoutMs} ms) after ${answered} answered; the rest of the run was not judged`,
      exchange,
      answered,
    );
  };

  /**
   * One request of sendOnWire, after its turn, on the connection `reuse` then gives (or a new one): the
   * step, and the connection after it.
   */
  const wireOnce = async (
    outgoing: WireOutgoing,
    connect: Connect,
    reuse: () => WireConnection | undefined,
  ): Promise<{ step: WireStep; connection: WireConnection | undefined; persistent: boolean }> => {
    const bucket = bucketOf(outgoing);
    const { url, headers, credential, request } = prepare(outgoing);
    const close = outgoing.close === true;
    const head = `${[
      `${outgoing.method} ${url.pathname}${url.search} HTTP/1.1`,
      `host: ${url.host}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ...(close ? ['connection: close'] : []),
    ].join('\r\n')}\r\n\r\n`;
    const recorded: RequestRecord = close
      ? { ...request, headers: { ...request.headers, connection: 'close' } }
      : request;
    const stop = options.signal;
    let open: WireConnection | undefined;
    try {
      for (let attempt = 0; ; attempt += 1) {
        const reserved = await waitYourTurn(true, bucket);
        if (stop !== undefined && stopped(stop)) throw interrupted(stop);
        if (attempt === 0) open = reuse();
        const reused = open !== undefined;
        open ??= openWire(connect(url), wireCap(MAX_RESPONSE_BYTES), stop);
        requests += 1;
        const sentSeq = ++tick;
        const startedMs = options.now();
        const answer = await open.exchange(head, outgoing.method, options.timeoutMs);
        if (stop !== undefined && stopped(stop)) throw interrupted(stop);
        if (options.maxRpm !== undefined) nextAt = Math.max(nextAt, startedMs) + 60_000 / options.maxRpm;
        const exchangeOf = (response: Exchange['response'], failure?: Exchange['failure']): Exchange => ({
          operationId: outgoing.operationId,
          sentSeq,
          answeredSeq: ++tick,
          credential,
          request: recorded,
          response,
          ...(failure === undefined ? {} : { failure }),
          durationMs: options.now() - startedMs,
        });
        if (answer.kind !== 'message') {
          windows.learn(bucket, undefined, reserved);
          open.destroy();
          open = undefined;
          // A connection kept alive that the target closed as the request left: once more on a new one,
          // as any client does for a GET.
          if (answer.kind === 'failed' && answer.got === 0 && reused && attempt === 0) continue;
          const fault =
            answer.kind === 'fault'
              ? {
                  ...answer.fault,
                  message: redactor.response(answer.fault.message),
                  expected: redactor.response(answer.fault.expected),
                }
              : undefined;
          const why =
            answer.kind === 'fault'
              ? undefined
              : answer.kind === 'unjudged'
                ? answer.reason
                : answer.kind === 'timeout'
                  ? `no whole answer within ${options.timeoutMs} ms`
                  : redactor.response(answer.message);
          const exchange = exchangeOf(
            null,
            answer.kind === 'timeout'
              ? { kind: 'timeout', message: `no whole response within ${options.timeoutMs} ms` }
              : {
                  kind: 'network',
                  message:
                    fault !== undefined
                      ? `an answer not framed as RFC 9112 requires: ${fault.message}`
                      : `no whole response: ${why}`,
                  ...(answer.kind === 'failed' && answer.code !== undefined ? { code: answer.code } : {}),
                  ...(fault?.status === undefined ? {} : { status: fault.status }),
                },
          );
          options.onExchange(exchange);
          // No answer in time counts as fetch's does: three in a row, and the target stopped answering.
          if (answer.kind === 'timeout') {
            unanswered += 1;
            if (answered > 0) await stillAnswering(exchange);
          }
          return {
            step: {
              exchange,
              ...(fault === undefined ? {} : { fault }),
              ...(why === undefined ? {} : { unjudged: why }),
              after: Buffer.alloc(0),
              afterText: '',
              reused,
            },
            connection: undefined,
            persistent: false,
          };
        }
        const { message } = answer;
        answered += 1;
        unanswered = 0;
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of message.fields) {
          // As fetch gives them: names lower-cased, the values of a name joined by ", ".
          const key = redactor.response(name.toLowerCase());
          const text = redactor.response(value);
          responseHeaders[key] = key in responseHeaders ? `${responseHeaders[key]}, ${text}` : text;
        }
        learn(bucket, responseHeaders, reserved);
        let exchange: Exchange;
        let unjudged: string | undefined;
        try {
          const body = decoded(message.body, responseHeaders['content-encoding']);
          exchange = exchangeOf(responseRecord(message.status, responseHeaders, body));
        } catch (cause) {
          unjudged = `its body could not be read: ${redactor.response(cause instanceof Error ? cause.message : String(cause))}`;
          exchange = exchangeOf(null, {
            kind: 'network',
            message: `answered ${message.status}, but ${unjudged}`,
            status: message.status,
            ...(responseHeaders['content-encoding'] === undefined ? {} : { encoded: true as const }),
          });
        }
        options.onExchange(exchange);
        return {
          step: {
            exchange,
            ...(unjudged === undefined ? {} : { unjudged }),
            raw: answer.raw,
            after: Buffer.alloc(0),
            afterText: '',
            reused,
          },
          connection: open,
          persistent: message.persistent,
        };
      }
    } catch (cause) {
      // Stopped, or out of time, with a connection of its own open: not left to the target to close.
      open?.destroy();
      throw cause;
    }
  };

  const sendOnWire = async (outgoings: readonly WireOutgoing[]): Promise<readonly WireStep[]> => {
    const connect = options.connect;
    if (connect === undefined) return [];
    const steps: WireStep[] = [];
    let connection: WireConnection | undefined;
    let persistent = false;
    /** The bytes after the last step's message, as far as they came, added to it. */
    const collect = (rest: Buffer) => {
      const last = steps.pop();
      if (last === undefined) return;
      const after = Buffer.concat([last.after, rest]);
      steps.push({ ...last, after, afterText: redactor.response(after.toString('latin1', 0, 4096)) });
    };
    try {
      for (const outgoing of outgoings) {
        if (options.readOnly && outgoing.method !== 'GET') {
          throw new ContractAbort(
            'read_only_violation',
            `Refusing to send ${outgoing.method} ${outgoing.path}: the run is --read-only.`,
          );
        }
        if (mutedOf.has(outgoing.operationId)) break;
        // The turn may be a wait: what the target sends meanwhile is after the message before.
        const sent = await wireOnce(outgoing, connect, () => {
          if (connection === undefined) return undefined;
          collect(connection.takeRest());
          const keep = persistent && !connection.ended() && (steps.at(-1)?.after.length ?? 0) === 0;
          if (!keep) connection.destroy();
          connection = keep ? connection : undefined;
          return connection;
        });
        steps.push(sent.step);
        connection = sent.connection;
        persistent = sent.persistent;
        if (sent.step.fault !== undefined) break;
      }
      const last = steps.at(-1);
      if (connection !== undefined && last !== undefined) {
        const close = outgoings[steps.length - 1]?.close === true;
        const closed = close ? await connection.waitForClose(options.timeoutMs) : undefined;
        if (options.signal !== undefined && stopped(options.signal)) throw interrupted(options.signal);
        collect(connection.takeRest());
        if (closed !== undefined) {
          const now = steps.pop() as WireStep;
          steps.push({ ...now, closed });
        }
      }
      return steps;
    } finally {
      connection?.destroy();
    }
  };

  return {
    get maxRpm() {
      return maxRpm;
    },
    get requests() {
      return requests;
    },
    muted: mutedOf,
    refused: refusedOf,
    // From the key's limit even when its Reset is unreadable: the budget needs no Reset.
    requestBudget: () => (maxRpm === undefined ? undefined : requestBudgetOf(maxRpm)),
    setDeadline: (ms) => windows.setDeadline(ms),
    sendOnWire,
    async send(outgoing, sendOptions = {}) {
      if (options.readOnly && outgoing.method !== 'GET') {
        throw new ContractAbort(
          'read_only_violation',
          `Refusing to send ${outgoing.method} ${outgoing.path}: the run is --read-only.`,
        );
      }
      for (let attempt = 0; ; attempt += 1) {
        // An operation no longer sent waits no turn: once answers for it at once, and nothing went
        // over the wire to record.
        const muted = mutedOf.has(outgoing.operationId);
        const reserved = muted ? false : await waitYourTurn(sendOptions.pace !== false, bucketOf(outgoing));
        let exchange = await once(outgoing, reserved);
        if (exchange.failure?.kind === 'not_sent') return exchange;
        options.onExchange(exchange);
        const refused = (sent: Exchange) =>
          sent.failure?.kind === 'network' && /ECONNREFUSED/.test(sent.failure.message);
        // A dropped connection from a target that answered before: again after a pause, to tell a
        // target that went away (refused now) from one that drops this request (a finding). A POST
        // is not sent twice (it could create twice): a listPets tells whether the target is there.
        let probe = exchange;
        for (
          let again = 0;
          again < 2 && probe.failure?.kind === 'network' && answered > 0 && !refused(probe);
          again += 1
        ) {
          await options.sleep(options.backoffBaseMs);
          const idempotent = outgoing.method === 'GET' || outgoing.method === 'HEAD';
          const again = idempotent ? outgoing : LIVENESS_PROBE;
          const muted = mutedOf.has(again.operationId);
          probe = await once(
            again,
            muted ? false : await waitYourTurn(sendOptions.pace !== false, bucketOf(again)),
          );
          if (probe.failure?.kind === 'not_sent') break;
          options.onExchange(probe);
          if (idempotent) exchange = probe;
        }
        if (exchange.failure !== undefined && !refused(probe)) strike(outgoing.operationId, exchange.failure);
        if (exchange.failure?.kind === 'timeout' && answered > 0) await stillAnswering(exchange);
        if (answered > 0 && refused(probe)) {
          throw new ContractAbort(
            'unreachable',
            `The target stopped answering (ECONNREFUSED) after ${requests} requests (${outgoing.method} ${exchange.request.url}). ` +
              'Did it crash or restart? The checks so far are in the report; run again once it is back.',
            { request: exchange.request },
          );
        }
        // Without the key the target counts the request elsewhere (docs/mock.md: an anonymous bucket per
        // client address): its 429 says nothing of the key's budget. The caller decides; no retry.
        if (exchange.credential !== 'key' && exchange.response?.status === 429) return exchange;
        if (exchange.response?.status !== 429 || sendOptions.retry === false) return exchange;
        if (attempt >= options.maxRetries) {
          throw new ContractAbort(
            'ban_risk',
            `The server answered 429 to ${attempt + 1} attempts in a row (${outgoing.method} ${exchange.request.url}). ` +
              'Stopping now rather than risk the key being banned; lower --max-rpm or run later.',
            { request: exchange.request, encoded: 'content-encoding' in exchange.response.headers },
          );
        }
        const retryAfter = exchange.response.headers['retry-after'];
        const backoff = options.backoffBaseMs * 2 ** attempt;
        // An HTTP-date is a time on the target's clock.
        const asked = retryAfterMs(retryAfter, options.now() + skewMs);
        const wait = Math.max(asked, backoff) + Math.floor(options.random() * options.backoffBaseMs);
        if (wait > options.maxWaitMs && errorCodeOf(exchange.response.body) === 'api_key_banned') {
          const until = new Date(options.now() + asked).toISOString();
          throw new ContractAbort(
            'rate_limit_exhausted',
            `The server answered 429 api_key_banned (${outgoing.method} ${exchange.request.url}): it says the key is banned, ` +
              `with Retry-After: ${retryAfter ?? '(none)'}. Stopping; run again after ${until}, when the ban ends.`,
            { request: exchange.request, encoded: 'content-encoding' in exchange.response.headers },
          );
        }
        if (wait > options.maxWaitMs) {
          throw new ContractAbort(
            'rate_limit_exhausted',
            `The server answered 429 with Retry-After: ${retryAfter ?? '(none)'}, longer than the suite waits ` +
              `(${Math.round(options.maxWaitMs / 1000)} s). Stopping rather than risk the key's ban; run again later.`,
            { request: exchange.request, encoded: 'content-encoding' in exchange.response.headers },
          );
        }
        await options.sleep(wait);
        windows.forget(bucketOf(outgoing));
      }
    },
  };
}

/** An Error body's `code`, or undefined when the body is no JSON object with a string code. */
function errorCodeOf(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What came, in words, when undici refused an answer before its status was read: a header section
 * over Node's limit (`UND_ERR_HEADERS_OVERFLOW`), or an interim 100 (Continue) the request did not ask
 * for, on which undici drops the connection with only `bad response` (its one use of those words).
 * Undefined for any other failure.
 */
function refusedAnswer(code: unknown, reason: string): string | undefined {
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return `its header section is larger than the ${maxHeaderSize} bytes Node reads (node --max-http-header-size=N, or NODE_OPTIONS, raises it)`;
  if (code === 'UND_ERR_SOCKET' && reason === 'bad response')
    return "an interim 100 (Continue) came first, which the request did not ask for (it sent no Expect: 100-continue): Node's fetch drops the connection on one, though RFC 9110 §15.2 has a client read past it";
  return undefined;
}

/**
 * Why fetch failed, in words: its cause's message, or for an OpenSSL error (whose message is the
 * error queue's line, `80CC…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…c:350:`)
 * the reason OpenSSL gives, as `TLS error: wrong version number`.
 */
function failureReason(error: Error): string {
  const cause = error.cause as (Error & { reason?: unknown; library?: unknown }) | undefined;
  if (cause === undefined) return error.message;
  if (typeof cause.reason === 'string' && typeof cause.library === 'string' && /SSL/.test(cause.library))
    return `TLS error: ${cause.reason}`;
  return cause.message;
}
