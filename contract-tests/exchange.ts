// What was sent and what came back: plain data, the key already redacted.
import type { BodyBreak } from '../openapi/index.js';
import type { DuplicateName } from './http/duplicate-names.js';
import type { CredentialClass } from './model/types.js';

export interface RequestRecord {
  readonly method: string;
  readonly url: string;
  /**
   * As sent, except that the API key is shown as `$API_KEY`, and what was made of it (its case changed,
   * cut) as a POSIX sh expansion of $API_KEY (redaction.ts).
   */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface ResponseRecord {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text (the key redacted, in any form, should the server echo it: redaction.ts). */
  readonly body: string;
  /** Set when the body's bytes are not UTF-8: `body` then holds U+FFFD in place of each that is not. */
  readonly notUtf8?: true;
  /**
   * Set when the body is not empty and not JSON: where it stops being JSON, as it came
   * (openapi/json-break.ts), what the grammar wanted there, whether the body ended there, the decoded
   * body's size in bytes, and a few characters of the recorded body (the key hidden) around the place.
   * The response checker says it in its finding.
   */
  readonly notJson?: BodyBreak;
  /** Set when the body is JSON with an object that names a member twice: the first such (the key hidden). */
  readonly duplicateName?: DuplicateName;
}

export interface Exchange {
  readonly operationId: string;
  /**
   * When the request left, on one timeline of the run's sends and answers (retries and probes
   * included): increasing, unique, not contiguous.
   */
  readonly sentSeq: number;
  /** When its answer (or failure) came, on the same timeline: below another's sentSeq, it came before that left. */
  readonly answeredSeq: number;
  /** What the Authorization sent means, as whoever built the request decided. */
  readonly credential: CredentialClass;
  readonly request: RequestRecord;
  /** null when no response came: see `failure`. */
  readonly response: ResponseRecord | null;
  readonly failure?: {
    /**
     * No answer within the --timeout; the connection failed (refused, reset, closed before the body's
     * end, an answer that is not HTTP); or not sent at all, its operation no longer sent
     * (client.ts, OPERATION_SILENT_AFTER): such an exchange goes to no judge, report nor HAR.
     */
    readonly kind: 'timeout' | 'network' | 'not_sent';
    readonly message: string;
    /** The system's or TLS's error code, when it gave one (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`). */
    readonly code?: string;
    /**
     * The status of an answer that came but whose body could not be read (not in its Content-Encoding,
     * over 4 MiB) or did not end within the --timeout.
     */
    readonly status?: number;
    /**
     * That answer's head named a Content-Encoding (its body, not decoded, is the finding): a curl line
     * that reproduces it asks for the same codings and decodes them (toCurl).
     */
    readonly encoded?: true;
    /**
     * Bytes of an answer came, but Node's HTTP client refused them before a status was read (a header
     * section over its limit, an interim 100 it did not ask for): the target is there.
     */
    readonly refused?: true;
  };
  readonly durationMs: number;
  /** Sent while another request was in flight (concurrent creates): its order on the server is unknown. */
  readonly overlapped?: boolean;
}

/**
 * The forms of the key a request record holds (redaction.ts and derive/credentials.ts write them):
 * `$API_KEY`, `${API_KEY}`, `${API_KEY%?}` (its last character cut), `$(printf %s "$API_KEY" | …)` for
 * the key cut or its case changed, and `$(printf '\t')` for a tab. The shell expands them.
 */
const KEY_EXPANSION =
  /\$\{API_KEY(?:%\?)?\}|\$API_KEY(?![A-Za-z0-9_])|\$\(printf %s "\$API_KEY"(?: \| cut -c \d+-(?:\d+)?)?(?: \| LC_ALL=C tr (?:a-zA-Z A-Za-z|A-Z a-z|a-z A-Z))?\)|\$\(printf '\\t'\)/g;

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * One word of a POSIX sh command: literal text as it is, the forms of $API_KEY expanded. In double
 * quotes where nothing else in it is special there (`"…", \, `, $` and `!`, which an interactive bash
 * expands), else literal parts in single quotes and the expansions in double quotes, side by side.
 */
function shellWord(value: string): string {
  const parts: { text: string; expand: boolean }[] = [];
  let at = 0;
  for (const match of value.matchAll(KEY_EXPANSION)) {
    if (match.index > at) parts.push({ text: value.slice(at, match.index), expand: false });
    parts.push({ text: match[0], expand: true });
    at = match.index + match[0].length;
  }
  if (at < value.length) parts.push({ text: value.slice(at), expand: false });
  if (!parts.some((part) => part.expand)) return shellQuote(value);
  if (parts.every((part) => part.expand || !/["\\`$!]/.test(part.text))) return `"${value}"`;
  return parts.map((part) => (part.expand ? `"${part.text}"` : shellQuote(part.text))).join('');
}

/**
 * What every request of the suite accepts in Accept-Encoding (client.ts sends it, as fetch would); not
 * in a request's record, since it is the same on all.
 */
export const ACCEPT_ENCODING = 'gzip, deflate';

/**
 * The request as a POSIX sh curl command; the key comes from $API_KEY, as the shell fills it in.
 * `encoded`: its answer came in a content coding, so the line asks for the same codings (curl asks for
 * none by default, and a server may answer otherwise then) and has curl decode them (`--compressed`).
 */
export function toCurl(request: RequestRecord, encoded = false): string {
  const parts = ['curl -i'];
  if (request.method !== 'GET') parts.push(`-X ${request.method}`);
  parts.push(shellWord(request.url));
  for (const [name, value] of Object.entries(request.headers))
    parts.push(`-H ${shellWord(`${name}: ${value}`)}`);
  if (encoded) parts.push(`-H ${shellWord(`accept-encoding: ${ACCEPT_ENCODING}`)}`);
  if (request.body !== undefined) parts.push(`--data-raw ${shellWord(request.body)}`);
  if (encoded) parts.push('--compressed');
  return parts.join(' ');
}

/**
 * Requests sent one after another on one connection as a POSIX sh curl command that shows the bytes
 * of the answers (`--raw`: chunks as they came; `-v`: the head as it came, and what curl makes of
 * bytes after a message, `Excess found …`, `Leftovers after chunking`): the headers of the first
 * (curl gives them to every URL and reuses the connection between them), Connection aside.
 */
export function toWireCurl(requests: readonly RequestRecord[], encoded = false): string {
  const [first] = requests;
  if (first === undefined) return '';
  const parts = ['curl -v --raw --http1.1'];
  for (const [name, value] of Object.entries(first.headers))
    if (name !== 'connection') parts.push(`-H ${shellWord(`${name}: ${value}`)}`);
  if (encoded) parts.push(`-H ${shellWord(`accept-encoding: ${ACCEPT_ENCODING}`)}`);
  for (const request of requests) parts.push(shellWord(request.url));
  return parts.join(' ');
}

/**
 * At most `max` characters of a body on one line (runs of white space folded), for a report; never
 * half of a surrogate pair. Other characters as they came: the reporters that print it for a person
 * show the ones a terminal would act on as escapes (reporters/printable.ts).
 */
export function excerpt(body: string, max = 300): string {
  const line = foldedHead(body, max);
  if (line.length <= max) return line;
  const end = /[\ud800-\udbff]/.test(line.charAt(max - 1)) ? max - 1 : max;
  return `${line.slice(0, end)}… (${body.length} characters)`;
}

/** Runs of white space folded to one space: not U+FEFF, which JavaScript's \s and trim() take for one. */
const WHITE_SPACE = /[^\S\uFEFF]+/g;

/**
 * The body on one line, runs of white space folded and none at either end; or, when the body is long,
 * a head of it at least `max` + 2 characters long whose first `max` + 1 are those of the whole body's
 * line (only its last character can change, white space the rest continues or ends): a 2 MB body is not
 * folded whole for an excerpt of 300 characters. A byte-order mark before a JSON body is why it is not
 * JSON, and stays for the reader to see.
 */
function foldedHead(body: string, max: number): string {
  for (let size = 4 * (max + 2); size < body.length; size *= 4) {
    const head = body.slice(0, size).replace(WHITE_SPACE, ' ').replace(/^ /, '');
    if (head.length >= max + 2) return head;
  }
  return body.replace(WHITE_SPACE, ' ').replace(/^ | $/g, '');
}
