// HTTP/1.1 message framing as RFC 9112 requires of a server, read from the bytes a raw socket got
// (wire.ts): what Node's fetch (undici) forgives or hides and other clients do not. A header line
// folded onto the next (obs-fold), white space before a field's colon, a Content-Length that is a
// list, both Content-Length and Transfer-Encoding, a malformed chunk, bytes after a complete message:
// Python's urllib3, Go's net/http, curl or a reverse proxy read such an answer otherwise than fetch,
// and bytes left after one answer become the answer to the next request on the connection.
// Pure: bytes in, a reading out.

export interface FramingRule {
  readonly kind: 'rfc';
  readonly cite: string;
  readonly sentence: string;
}

const rule = (cite: string, sentence: string): FramingRule => ({ kind: 'rfc', cite, sentence });

/** The sentences of RFC 9112 each fault breaks, quoted in its finding. */
export const RFC9112 = {
  lineEnds: rule(
    'RFC 9112 §2.2',
    'Although the line terminator for the start-line and fields is the sequence CRLF, a recipient MAY recognize a single LF as a line terminator and ignore any preceding CR. […] A sender MUST NOT generate a bare CR (a CR character not immediately followed by LF) within any protocol elements other than the content.',
  ),
  statusLine: rule(
    'RFC 9112 §4',
    'status-line = HTTP-version SP status-code SP [ reason-phrase ]; HTTP-version = HTTP-name "/" DIGIT "." DIGIT; HTTP-name = %s"HTTP"',
  ),
  fieldLine: rule('RFC 9112 §5', 'field-line = field-name ":" OWS field-value OWS'),
  fieldVchar: rule(
    'RFC 9110 §5.5',
    'field-value = *field-content; field-content = field-vchar [ 1*( SP / HTAB / field-vchar ) field-vchar ]; field-vchar = VCHAR / obs-text',
  ),
  colon: rule(
    'RFC 9112 §5.1',
    'No whitespace is allowed between the field name and colon. […] A proxy MUST remove any such whitespace from a response message before forwarding the message downstream.',
  ),
  obsFold: rule(
    'RFC 9112 §5.2',
    'A sender MUST NOT generate a message that includes line folding (i.e., that has any field line value that contains a match to the obs-fold rule) unless the message is intended for packaging within the message/http media type.',
  ),
  fieldValue: rule(
    'RFC 9110 §5.5',
    'Field values containing CR, LF, or NUL characters are invalid and dangerous, due to the varying ways that implementations might parse and interpret those characters; a recipient of CR, LF, or NUL within a field value MUST either reject the message or replace each of those characters with SP before further processing or forwarding of that message.',
  ),
  bothFramings: rule(
    'RFC 9112 §6.1',
    'A sender MUST NOT send a Content-Length header field in any message that contains a Transfer-Encoding header field.',
  ),
  chunkedOnce: rule(
    'RFC 9112 §6.1',
    'A sender MUST NOT apply the chunked transfer coding more than once to a message body (i.e., chunking an already chunked message is not allowed).',
  ),
  http10TransferEncoding: rule(
    'RFC 9112 §6.1',
    'A server or client that receives an HTTP/1.0 message containing a Transfer-Encoding header field MUST treat the message as if the framing is faulty, even if a Content-Length is present, and close the connection after processing the message.',
  ),
  noFramingHere: rule(
    'RFC 9112 §6.1, §6.2',
    'A server MUST NOT send a Transfer-Encoding header field in any response with a status code of 1xx (Informational) or 204 (No Content). […] A server MUST NOT send a Content-Length header field in any response with a status code of 1xx (Informational) or 204 (No Content).',
  ),
  contentLength: rule(
    'RFC 9112 §6.3',
    'If a message is received without Transfer-Encoding and with an invalid Content-Length header field, then the message framing is invalid and the recipient MUST treat it as an unrecoverable error, unless the field value can be successfully parsed as a comma-separated list (Section 5.6.1 of [HTTP]), all values in the list are valid, and all values in the list are the same (in which case, the message is processed with that single value used as the Content-Length field value).',
  ),
  chunked: rule(
    'RFC 9112 §7.1',
    'chunked-body = *chunk last-chunk trailer-section CRLF; chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF; chunk-size = 1*HEXDIG; last-chunk = 1*("0") [ chunk-ext ] CRLF',
  ),
  oneAnswer: rule(
    'RFC 9112 §2.1, §6.3',
    "HTTP-message = start-line CRLF *( field-line CRLF ) CRLF [ message-body ] […] If the final response to the last request on a connection has been completely received and there remains additional data to read, a user agent MAY discard the remaining data or attempt to determine if that data belongs as part of the prior message body, which might be the case if the prior message's Content-Length value is incorrect. A client MUST NOT process, cache, or forward such extra data as a separate response, since such behavior would be vulnerable to cache poisoning.",
  ),
  close: rule(
    'RFC 9112 §9.6',
    'A server that receives a "close" connection option MUST initiate closure of the connection (see below) after it sends the final response to the request that contained the "close" connection option.',
  ),
} as const;

export interface FramingFault {
  /** Stable words without the case's detail: what groups findings. */
  readonly cause: string;
  /** What came, in words, the bytes shown escaped (JSON string syntax), cut. */
  readonly message: string;
  readonly expected: string;
  readonly because: FramingRule;
  /** The status of the message it is in, once its status line was read. */
  readonly status?: number;
}

export interface WireMessage {
  readonly version: '1.0' | '1.1';
  readonly status: number;
  /** The fields in the order they came, names as sent, values as latin1 text (obs-text kept). */
  readonly fields: readonly (readonly [string, string])[];
  /** The content, its transfer coding (chunks) taken off; its content coding (gzip) still on. */
  readonly body: Buffer;
  /** Where in the bytes read this message (and any interim one before it) ends. */
  readonly end: number;
  /** Whether the connection may carry another request after it (RFC 9112 §9.3). */
  readonly persistent: boolean;
  /** Whether the body ran to the connection's close (neither Content-Length nor chunked). */
  readonly closeDelimited: boolean;
}

export type WireNeed = number | 'line' | 'blank' | 'close';

export type WireReading =
  /**
   * The message has not ended yet: more bytes (or the connection's close) will tell. `need`: read
   * again once the bytes reach that many, or a line ends (`line`), or an empty line does (`blank`: a
   * head's end), or at the close (`close`); a reader that waits for it reads each byte a bounded
   * number of times, however the bytes trickle in.
   */
  | { readonly kind: 'more'; readonly need: WireNeed }
  | { readonly kind: 'message'; readonly message: WireMessage }
  | { readonly kind: 'fault'; readonly fault: FramingFault }
  /**
   * Nothing to judge here: the connection closed before the message ended, or its head is over the
   * cap. Node's fetch says so of its own requests (a body cut short, a head over 16 KiB).
   */
  | { readonly kind: 'unjudged'; readonly reason: string };

/** The most of a head (status line and fields) read: past it, the head is not judged. */
export const MAX_HEAD_BYTES = 64 * 1024;

/** tchar (RFC 9110 §5.6.2). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** field-vchar, SP and HTAB (RFC 9110 §5.5), as latin1 text. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const STATUS_LINE = /^HTTP\/(\d)\.(\d) (\d{3})(?: ([\t\x20-\x7e\x80-\xff]*))?$/;

/** A line's bytes, shown escaped and cut: `"Content-Length : 12"`. */
export function shown(text: string, max = 80): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut).replace(
    /[\u007f-\u00ff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

interface Head {
  readonly version: '1.0' | '1.1';
  readonly status: number;
  readonly fields: readonly (readonly [string, string])[];
  readonly end: number;
}

type HeadReading =
  | { readonly kind: 'head'; readonly head: Head }
  | Exclude<WireReading, { readonly kind: 'message' }>;

/**
 * The lines of a head or a trailer section from `from`, each ended by CRLF, up to the empty line:
 * the lines and where the section ends, or why not.
 */
function lines(
  text: string,
  from: number,
  eof: boolean,
): { lines: string[]; end: number } | Exclude<HeadReading, { kind: 'head' }> {
  const found: string[] = [];
  let at = from;
  for (;;) {
    const lf = text.indexOf('\n', at);
    if (lf < 0) {
      if (text.length - from >= MAX_HEAD_BYTES)
        return { kind: 'unjudged', reason: `its head is over ${MAX_HEAD_BYTES / 1024} KiB` };
      return eof
        ? { kind: 'unjudged', reason: 'the connection closed inside its head' }
        : { kind: 'more', need: 'blank' };
    }
    const line = text.slice(at, lf);
    if (!line.endsWith('\r')) {
      return {
        kind: 'fault',
        fault: {
          cause: 'a line of the head ended by LF alone',
          message: `the line ${shown(line)} ends with LF alone, not CRLF`,
          expected: 'every line of the head ended by CRLF',
          because: RFC9112.lineEnds,
        },
      };
    }
    const content = line.slice(0, -1);
    if (content.includes('\r')) {
      return {
        kind: 'fault',
        fault: {
          cause: 'a bare CR in the head',
          message: `the line ${shown(content)} holds a CR not followed by LF`,
          expected: 'no CR in the head but before each LF',
          because: RFC9112.lineEnds,
        },
      };
    }
    at = lf + 1;
    if (content === '') return { lines: found, end: at };
    found.push(content);
  }
}

/** The field lines of a head or trailer section, each held to RFC 9112 §5. */
function fieldsOf(
  raw: readonly string[],
  status: number | undefined,
): { fields: [string, string][] } | { fault: FramingFault } {
  const fields: [string, string][] = [];
  const at = status === undefined ? {} : { status };
  for (const line of raw) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      return {
        fault: {
          cause: 'a header field folded onto a continuation line (obs-fold)',
          message: `the line ${shown(line)} begins with white space: it continues the field before it (obs-fold)${
            fields.length === 0 ? '' : `, ${shown(fields[fields.length - 1]?.[0] ?? '')}`
          }`,
          expected: 'each field on one line',
          because: RFC9112.obsFold,
          ...at,
        },
      };
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    if (colon > 0 && /[ \t]$/.test(name) && TOKEN.test(name.trimEnd())) {
      return {
        fault: {
          cause: 'white space between a field name and its colon',
          message: `the field line ${shown(line)} has white space between its name and the colon`,
          expected: `${name.trimEnd()}: …`,
          because: RFC9112.colon,
          ...at,
        },
      };
    }
    if (colon <= 0 || !TOKEN.test(name)) {
      return {
        fault: {
          cause: 'a head line that is no field line',
          message: `the head line ${shown(line)} is not name: value (its name a token)`,
          expected: 'field-name ":" OWS field-value OWS',
          because: RFC9112.fieldLine,
          ...at,
        },
      };
    }
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!FIELD_VALUE.test(value)) {
      const nul = value.includes('\0');
      return {
        fault: {
          cause: nul ? 'a NUL in a field value' : 'a control character in a field value',
          message: `the field ${shown(name)}'s value ${shown(value)} holds ${nul ? 'a NUL' : 'a control character'}`,
          expected: 'a field value of visible characters, SP and HTAB',
          because: nul ? RFC9112.fieldValue : RFC9112.fieldVchar,
          ...at,
        },
      };
    }
    fields.push([name, value]);
  }
  return { fields };
}

function readHead(text: string, from: number, eof: boolean): HeadReading {
  const section = lines(text, from, eof);
  if (!('lines' in section)) return section;
  const [statusLine, ...raw] = section.lines;
  const m = STATUS_LINE.exec(statusLine ?? '');
  if (m === null || m[1] !== '1') {
    return {
      kind: 'fault',
      fault: {
        cause: 'a status line that is not HTTP/1.x',
        message: `the status line is ${shown(statusLine ?? '')}`,
        expected: 'HTTP/1.1 200 OK (HTTP-version SP status-code SP reason-phrase)',
        because: RFC9112.statusLine,
      },
    };
  }
  const status = Number(m[3]);
  const read = fieldsOf(raw, status);
  if ('fault' in read) return { kind: 'fault', fault: read.fault };
  return {
    kind: 'head',
    head: { version: m[2] === '0' ? '1.0' : '1.1', status, fields: read.fields, end: section.end },
  };
}

/** The comma-separated members of every field of a name, lower-cased. */
function members(fields: Head['fields'], name: string): string[] {
  return fields
    .filter(([field]) => field.toLowerCase() === name)
    .flatMap(([, value]) => value.split(','))
    .map((member) => member.trim().toLowerCase())
    .filter((member) => member !== '');
}

const fault = (f: FramingFault): WireReading => ({ kind: 'fault', fault: f });

/**
 * Reads one response from `bytes` (interim 1xx responses before it skipped, each held to the same
 * rules), as the answer to a request of `method`; `eof` when the connection has closed after them.
 */
export function readResponse(bytes: Buffer, method: string, eof: boolean, memo: WireMemo = {}): WireReading {
  let from = memo.interim?.end ?? 0;
  for (;;) {
    // latin1: one character a byte, so offsets in the text are offsets in the bytes (from `from`).
    const text = bytes.toString('latin1', from, Math.min(bytes.length, from + MAX_HEAD_BYTES + 4));
    const reading = readHead(text, 0, eof && from + text.length === bytes.length);
    if (reading.kind !== 'head') return reading;
    const head = { ...reading.head, end: from + reading.head.end };
    const at = { status: head.status };
    const transfer = members(head.fields, 'transfer-encoding');
    const lengths = head.fields.filter(([name]) => name.toLowerCase() === 'content-length');
    const interim = head.status >= 100 && head.status < 200;
    if ((interim || head.status === 204) && (transfer.length > 0 || lengths.length > 0)) {
      return fault({
        cause: `a ${interim ? '1xx' : '204'} response with ${transfer.length > 0 ? 'Transfer-Encoding' : 'Content-Length'}`,
        message: `the ${head.status} carries ${transfer.length > 0 ? 'Transfer-Encoding' : 'Content-Length'}, which no ${interim ? '1xx' : '204'} may`,
        expected: `a ${head.status} without Content-Length or Transfer-Encoding`,
        because: RFC9112.noFramingHere,
        ...at,
      });
    }
    if (interim && head.status !== 101) {
      from = head.end;
      const count = (memo.interim?.count ?? 0) + 1;
      if (count > MAX_INTERIM)
        return {
          kind: 'unjudged',
          reason: `more than ${MAX_INTERIM} interim (1xx) responses came before it`,
        };
      memo.interim = { end: from, count };
      continue;
    }
    const connection = members(head.fields, 'connection');
    const persistent =
      head.status !== 101 &&
      !connection.includes('close') &&
      (head.version === '1.1' || connection.includes('keep-alive'));
    const message = (body: Buffer, end: number, closeDelimited: boolean): WireReading => ({
      kind: 'message',
      message: {
        version: head.version,
        status: head.status,
        fields: head.fields,
        body,
        end,
        persistent: persistent && !closeDelimited,
        closeDelimited,
      },
    });
    // No content, whatever the fields say (RFC 9112 §6.3 rule 1): what follows is the next message.
    if (method === 'HEAD' || interim || head.status === 204 || head.status === 304)
      return message(Buffer.alloc(0), head.end, false);
    if (transfer.length > 0) {
      if (head.version === '1.0') {
        return fault({
          cause: 'an HTTP/1.0 response with Transfer-Encoding',
          message: `the HTTP/1.0 ${head.status} carries Transfer-Encoding: ${transfer.join(', ')}`,
          expected: 'an HTTP/1.0 response framed by Content-Length or by closing the connection',
          because: RFC9112.http10TransferEncoding,
          ...at,
        });
      }
      if (lengths.length > 0) {
        return fault({
          cause: 'both Content-Length and Transfer-Encoding',
          message: `the ${head.status} carries both Content-Length: ${lengths.map(([, v]) => v).join(', ')} and Transfer-Encoding: ${transfer.join(', ')}`,
          expected: 'one framing: Content-Length or Transfer-Encoding: chunked, not both',
          because: RFC9112.bothFramings,
          ...at,
        });
      }
      const chunkedCount = transfer.filter((coding) => coding === 'chunked').length;
      if (chunkedCount > 1) {
        return fault({
          cause: 'chunked applied more than once',
          message: `the ${head.status} carries Transfer-Encoding: ${transfer.join(', ')}`,
          expected: 'chunked once',
          because: RFC9112.chunkedOnce,
          ...at,
        });
      }
      // Chunked not the last coding: the body runs to the close (RFC 9112 §6.3 rule 4), as a response may.
      if (transfer[transfer.length - 1] !== 'chunked') return closeDelimited(bytes, head.end, eof, message);
      return chunks(bytes, head.end, eof, head.status, message, memo);
    }
    if (lengths.length > 0) {
      const values = lengths.map(([, value]) => value);
      if (lengths.length > 1 || !/^\d+$/.test(values[0] ?? '')) {
        return fault({
          cause: 'a Content-Length that is not one decimal number',
          message: `the ${head.status} carries ${values.map((v) => `Content-Length: ${shown(v)}`).join(' and ')}`,
          expected: 'one Content-Length field, its value 1*DIGIT',
          because: RFC9112.contentLength,
          ...at,
        });
      }
      const length = Number(values[0]);
      if (!Number.isSafeInteger(length) || head.end + length > bytes.length) {
        return eof
          ? {
              kind: 'unjudged',
              reason: `the connection closed before the end of its Content-Length: ${length}`,
            }
          : { kind: 'more', need: Number.isSafeInteger(length) ? head.end + length : 'close' };
      }
      return message(bytes.subarray(head.end, head.end + length), head.end + length, false);
    }
    return closeDelimited(bytes, head.end, eof, message);
  }
}

function closeDelimited(
  bytes: Buffer,
  from: number,
  eof: boolean,
  message: (body: Buffer, end: number, closeDelimited: boolean) => WireReading,
): WireReading {
  return eof ? message(bytes.subarray(from), bytes.length, true) : { kind: 'more', need: 'close' };
}

/** The most hex digits a chunk size may have here: 15 is past anything a run reads (4 MiB). */
const MAX_CHUNK_DIGITS = 15;
const CHUNK_LINE = /^([0-9A-Fa-f]+)([ \t]*;[\t\x20-\x7e\x80-\xff]*)?$/;

/**
 * How far a chunked body was read, for the next reading of the same bytes and more (`readResponse`'s
 * `memo`): the chunks already whole are not read again.
 */
export interface WireMemo {
  chunked?: { from: number; at: number; spans: number[] };
  /** Where the interim responses read so far end, and how many they were. */
  interim?: { end: number; count: number };
}

/** The most interim (1xx) responses read before one answer: past them, it is not judged. */
export const MAX_INTERIM = 16;

/** A chunked body from `from` (RFC 9112 §7.1), its trailer section held to §5 too. */
function chunks(
  bytes: Buffer,
  from: number,
  eof: boolean,
  status: number,
  message: (body: Buffer, end: number, closeDelimited: boolean) => WireReading,
  memo: WireMemo,
): WireReading {
  // Where each whole chunk's data starts and ends, in pairs.
  const resumed = memo.chunked?.from === from ? memo.chunked : undefined;
  const spans = resumed?.spans ?? [];
  let at = resumed?.at ?? from;
  memo.chunked = { from, at, spans };
  const bad = (what: string): WireReading =>
    fault({
      cause: 'a chunked body that is not well formed',
      message: `the ${status}'s chunked body ${what}`,
      expected: 'chunk-size (hex) CRLF, that many bytes, CRLF; … 0 CRLF, trailers, CRLF',
      because: RFC9112.chunked,
      status,
    });
  const more = (need: number | 'line' | 'blank'): WireReading =>
    eof
      ? { kind: 'unjudged', reason: 'the connection closed inside its chunked body' }
      : { kind: 'more', need };
  for (;;) {
    const lf = bytes.indexOf(0x0a, at);
    if (lf < 0) return bytes.length - at > 1024 ? bad('has a chunk-size line over 1 KiB') : more('line');
    const line = bytes.toString('latin1', at, lf);
    if (!line.endsWith('\r')) return bad(`has the chunk-size line ${shown(line)} ended by LF alone`);
    const size = CHUNK_LINE.exec(line.slice(0, -1));
    if (size === null || (size[1] ?? '').length > MAX_CHUNK_DIGITS)
      return bad(`has ${shown(line.slice(0, -1))} where a chunk size (hexadecimal) was due`);
    const length = Number.parseInt(size[1] ?? '', 16);
    at = lf + 1;
    if (length === 0) break;
    if (at + length + 2 > bytes.length) return more(at + length + 2);
    spans.push(at, at + length);
    at += length;
    if (bytes[at] !== 0x0d || bytes[at + 1] !== 0x0a)
      return bad(
        `goes on after a chunk of ${length} bytes with ${shown(bytes.toString('latin1', at, at + 20))}, not CRLF`,
      );
    at += 2;
    memo.chunked = { from, at, spans };
  }
  // The trailer section: field lines to an empty line (offsets in its text from `at`).
  const text = bytes.toString('latin1', at, Math.min(bytes.length, at + MAX_HEAD_BYTES + 2));
  const section = lines(text, 0, eof);
  if (!('lines' in section)) {
    if (section.kind === 'fault')
      return bad(`ends in a trailer section that breaks a rule: ${section.fault.message}`);
    return section.kind === 'more' ? more('blank') : section;
  }
  const trailers = fieldsOf(section.lines, status);
  if ('fault' in trailers)
    return bad(`ends in a trailer section that breaks a rule: ${trailers.fault.message}`);
  const parts: Buffer[] = [];
  for (let i = 0; i < spans.length; i += 2) parts.push(bytes.subarray(spans[i], spans[i + 1]));
  return message(Buffer.concat(parts), at + section.end, false);
}
