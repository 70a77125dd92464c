// The headers a proxy must not forward (RFC 9110 §7.6.1): Connection, the fields it names, and the
// hop-by-hop fields a sender may use without naming them. Host is the upstream's own.

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
  'trailer',
]);

type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** The end-to-end headers of a message: everything but the hop-by-hop ones (and, if asked, Host). */
export function endToEnd(
  headers: NodeHeaders,
  drop: readonly string[] = [],
): Record<string, string | string[]> {
  const connection = headers.connection;
  const named = new Set(
    (Array.isArray(connection) ? connection.join(',') : (connection ?? ''))
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ''),
  );
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower) || named.has(lower) || drop.includes(lower)) continue;
    out[lower] = value;
  }
  return out;
}
