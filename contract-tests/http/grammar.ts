// The grammars of the response header fields the HTTP checks read, each as its RFC writes it.

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE =
  /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/**
 * RFC 9110 §5.6.7: `IMF-fixdate = day-name "," SP date1 SP time-of-day SP GMT`, a real date whose
 * day-name is its own (`Thu, 05 Dec 2030 00:00:00 GMT`). The ms since the epoch, or undefined.
 */
export function parseImfFixdate(value: string): number | undefined {
  const m = IMF_FIXDATE.exec(value);
  if (m === null) return undefined;
  const [, day, dd, mon, yyyy, hh, mm, ss] = m;
  const ms = Date.UTC(
    Number(yyyy),
    MONTHS.indexOf(mon ?? ''),
    Number(dd),
    Number(hh),
    Number(mm),
    Number(ss),
  );
  const date = new Date(ms);
  // Date.UTC rolls 31 Feb over into March, and 24:00 into the next day: the fields must survive.
  if (
    date.getUTCDate() !== Number(dd) ||
    date.getUTCHours() !== Number(hh) ||
    Number(ss) > 59 ||
    Number(mm) > 59
  )
    return undefined;
  return DAYS[date.getUTCDay()] === day ? ms : undefined;
}

export const isImfFixdate = (value: string): boolean => parseImfFixdate(value) !== undefined;

/**
 * RFC 9651 §3.3.7: a Date is `@` and an Integer (at most 15 digits, `-` allowed), as RFC 9745 §2.1
 * requires of Deprecation. Parameters (`;…`) are allowed after it (RFC 9651 §3.1.2). Seconds, or undefined.
 */
export function parseSfDate(value: string): number | undefined {
  const m = /^@(-?\d{1,15})(?:;[a-z*][a-z0-9_.*-]*(?:=[^;]*)?)*$/.exec(value.trim());
  return m === null ? undefined : Number(m[1]);
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * RFC 9110 §8.3.1: `media-type = type "/" subtype parameters`, parameters `*( OWS ";" OWS [ parameter ] )`.
 * The essence lower-cased, or undefined when it is not one.
 */
export function parseMediaType(
  value: string,
): { readonly essence: string; readonly parameters: ReadonlyMap<string, string> } | undefined {
  const [head = '', ...rest] = value.split(';');
  const [type, subtype, extra] = head.trim().split('/');
  if (
    type === undefined ||
    subtype === undefined ||
    extra !== undefined ||
    !TOKEN.test(type) ||
    !TOKEN.test(subtype)
  )
    return undefined;
  const parameters = new Map<string, string>();
  for (const part of rest) {
    const p = part.trim();
    if (p === '') continue;
    const eq = p.indexOf('=');
    if (eq <= 0 || !TOKEN.test(p.slice(0, eq))) return undefined;
    parameters.set(p.slice(0, eq).toLowerCase(), p.slice(eq + 1));
  }
  return { essence: `${type}/${subtype}`.toLowerCase(), parameters };
}

/**
 * RFC 8288 §3: `Link = #link-value`, `link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )`.
 * Each link's target and its `rel` values (lower case), or undefined when the field does not parse.
 */
export function parseLinks(
  value: string,
): { readonly target: string; readonly rels: readonly string[] }[] | undefined {
  const links: { target: string; rels: string[] }[] = [];
  const re =
    /\s*<([^>]*)>((?:\s*;\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+\*?(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[!#$%&'*+.^_`|~0-9A-Za-z-]+))?)*)\s*(,|$)/y;
  let at = 0;
  while (at < value.length) {
    re.lastIndex = at;
    const m = re.exec(value);
    if (m === null || re.lastIndex === at) return undefined;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter((r) => r !== '');
    links.push({ target: m[1] ?? '', rels });
    at = re.lastIndex;
    if (m[3] === '') break;
  }
  return links.length === 0 ? undefined : links;
}

/**
 * Whether a WWW-Authenticate value (its fields joined by commas, as a client reads them) offers a Bearer
 * challenge among its challenges (RFC 9110 §11.6.1: one or more; RFC 6750 §3: the scheme `Bearer`, in
 * any case): a challenge begins the value or follows a comma, outside a quoted auth-param value.
 */
export function hasBearerChallenge(value: string): boolean {
  const unquoted = value.replace(/"(?:[^"\\]|\\.)*"?/g, '""');
  return /(^|,)\s*bearer(\s|,|$)/i.test(unquoted);
}
