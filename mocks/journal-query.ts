// Reading the journal a page at a time, as `GET /__petkit/requests?method=&status=&path=&since=&after=&limit=`
// asks: the filters, then at most `limit` entries after the cursor, and the next page's query.
import type { Journal, JournalEntry } from './journal.js';

/** Entries in one page by default, and at most. */
export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 1000;

/** What `GET /__petkit/requests` may filter and page by, read from its query. */
export interface JournalQuery {
  readonly method?: string;
  /** `404`, or a class: `4xx`. */
  readonly status?: string;
  /** Entries whose path contains this. */
  readonly path?: string;
  /** Entries from this time on (ms since the epoch). */
  readonly since?: number;
  /** Entries after this id (the previous page's `next`). */
  readonly after?: number;
  readonly limit: number;
}

/** A query parameter that cannot be read: its name and why. */
export class JournalQueryError extends Error {
  override readonly name = 'JournalQueryError';
}

const QUERY_NAMES = ['method', 'status', 'path', 'since', 'after', 'limit'];

export function parseJournalQuery(params: URLSearchParams): JournalQuery {
  for (const name of params.keys()) {
    if (!QUERY_NAMES.includes(name))
      throw new JournalQueryError(`Unknown parameter "${name.slice(0, 40)}"; use ${QUERY_NAMES.join(', ')}.`);
    // Read once, a second value was dropped unsaid (?status=200&status=401 showed the 200s only).
    const values = params.getAll(name);
    if (values.length > 1)
      throw new JournalQueryError(
        `${name} is given ${values.length} times (${values
          .slice(0, 3)
          .map((value) => `"${value.slice(0, 40)}"`)
          .join(', ')}${values.length > 3 ? ', …' : ''}); give it once.`,
      );
  }
  const method = params.get('method') ?? undefined;
  const status = params.get('status') ?? undefined;
  // 0: the entries of a network fault (their status is 0; a `truncated` one keeps its status).
  if (status !== undefined && !/^(?:0|[1-5](?:\d\d|xx))$/i.test(status))
    throw new JournalQueryError(
      `status must be a status such as 404, a class such as 4xx, or 0 (network faults), got "${status.slice(0, 40)}".`,
    );
  const since = params.get('since');
  const sinceMs = since === null ? undefined : timeOf(since);
  const after = wholeOf(params.get('after'), 'after', 0, Number.MAX_SAFE_INTEGER);
  const limit = wholeOf(params.get('limit'), 'limit', 1, PAGE_MAX) ?? PAGE_DEFAULT;
  return {
    ...(method === undefined ? {} : { method: method.toUpperCase() }),
    ...(status === undefined ? {} : { status: status.toLowerCase() }),
    ...(params.has('path') ? { path: params.get('path') ?? '' } : {}),
    ...(sinceMs === undefined ? {} : { since: sinceMs }),
    ...(after === undefined ? {} : { after }),
    limit,
  };
}

function wholeOf(raw: string | null, name: string, min: number, max: number): number | undefined {
  if (raw === null) return undefined;
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new JournalQueryError(
      `${name} must be an integer from ${min} to ${max}, got "${raw.slice(0, 40)}".`,
    );
  return value;
}

/** Milliseconds since the epoch, or an ISO 8601 date. */
function timeOf(raw: string): number {
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (Number.isNaN(value))
    throw new JournalQueryError(
      `since must be a time in ms since the epoch or an ISO 8601 date, got "${raw.slice(0, 40)}".`,
    );
  return value;
}

export interface JournalPage {
  readonly entries: readonly JournalEntry[];
  /** Entries that match the filters, this page's and the rest. */
  readonly total: number;
  /** The next page's query (`?…&after=ID`), or null on the last page. */
  readonly next: string | null;
  /** Entries pushed out by the journal's bounds since the last clear. */
  readonly dropped: number;
}

/**
 * One page of the entries that match: oldest first, at most `limit`. `mask` hides the keys of the
 * keys file as an entry shows them: the path filter reads the path so, or a key sent in a path could
 * be guessed a character at a time from which filters match.
 */
export function queryJournal(
  journal: Journal,
  query: JournalQuery,
  params: URLSearchParams,
  mask?: (text: string) => string,
): JournalPage {
  const status = query.status;
  // Filtered and paged on the records as kept; only the page's entries are built.
  const matching = journal
    .records()
    .filter(
      (entry) =>
        (query.method === undefined || entry.method === query.method) &&
        (status === undefined ||
          (status.endsWith('xx')
            ? String(entry.status)[0] === status[0]
            : String(entry.status) === status)) &&
        (query.path === undefined ||
          (mask === undefined ? entry.path : mask(entry.path)).includes(query.path)) &&
        (query.since === undefined || entry.time >= query.since),
    );
  const from = query.after === undefined ? 0 : matching.findIndex((entry) => entry.id > (query.after ?? 0));
  const start = from < 0 ? matching.length : from;
  const page = matching.slice(start, start + query.limit);
  const last = page.at(-1);
  let next: string | null = null;
  if (last !== undefined && start + page.length < matching.length) {
    const following = new URLSearchParams(params);
    following.set('after', String(last.id));
    next = `?${following.toString()}`;
  }
  return {
    entries: page.map((kept) => kept.entry()),
    total: matching.length,
    next,
    dropped: journal.dropped,
  };
}
