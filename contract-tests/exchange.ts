// What was sent and what came back: plain data, the key already redacted.

export interface RequestRecord {
  readonly method: string;
  readonly url: string;
  /** As sent, except that the API key is shown as `$API_KEY`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface ResponseRecord {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text (the key redacted should the server echo it). */
  readonly body: string;
}

export interface Exchange {
  readonly operationId: string;
  readonly request: RequestRecord;
  /** null when no response came: see `failure`. */
  readonly response: ResponseRecord | null;
  readonly failure?: {
    readonly kind: 'timeout' | 'network';
    readonly message: string;
    /** The system's or TLS's error code, when it gave one (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`). */
    readonly code?: string;
  };
  readonly durationMs: number;
  /** Sent while another request was in flight (concurrent creates): its order on the server is unknown. */
  readonly overlapped?: boolean;
}

/** How a report shows the key with its case changed: what bash expands `${API_KEY~~}` to. */
const SWAPPED_KEY = ['$', '{API_KEY~~}'].join('');

/** The key with the case of every letter changed: what auth_enforced sends to see the key compared exactly. */
export function swapCase(key: string): string {
  return [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

/**
 * Replaces every occurrence of the key, so that no report ever carries it: as `$API_KEY`, and the key
 * with its case changed as `${API_KEY~~}` (what bash expands it to).
 */
export function redact(text: string, key: string): string {
  if (key === '') return text;
  const swapped = swapCase(key);
  const hidden = text.split(key).join('$API_KEY');
  return swapped === key ? hidden : hidden.split(swapped).join(SWAPPED_KEY);
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The request as a curl command; the key stays `$API_KEY`, for the shell to fill in. */
export function toCurl(request: RequestRecord): string {
  const parts = ['curl -i'];
  if (request.method !== 'GET') parts.push(`-X ${request.method}`);
  parts.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    const header = `${name}: ${value}`;
    // Double quotes only where the shell must expand $API_KEY; nothing else in a header is expanded.
    parts.push(
      /\$\{?API_KEY/.test(value) && !/["\\`]/.test(header.replaceAll('$API_KEY', ''))
        ? `-H "${header}"`
        : `-H ${shellQuote(header)}`,
    );
  }
  if (request.body !== undefined) parts.push(`--data-raw ${shellQuote(request.body)}`);
  return parts.join(' ');
}

/** At most `max` characters of a body on one line (runs of white space folded), for a report. */
export function excerpt(body: string, max = 300): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max)}… (${body.length} characters)`;
}
