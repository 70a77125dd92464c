// A curl line that replays a request against the upstream, with `$API_KEY` in place of the key: the
// only headers kept are those that change the answer (Content-Type, Accept but for curl's own `*/*`,
// Prefer), never a credential.

const KEPT = ['content-type', 'accept', 'prefer'];
/** Longest body written into the line; a longer one is cut, and the line says so. */
const MAX_BODY = 2000;

/** Quotes for a POSIX shell: single quotes, each inner one closed, escaped and reopened. */
const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlLine(
  method: string,
  url: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: string,
): string {
  const parts = ['curl -i'];
  if (method !== 'GET') parts.push(`-X ${method}`);
  if (headers.authorization !== undefined) parts.push('-H "Authorization: Bearer $API_KEY"');
  for (const name of KEPT) {
    const value = headers[name];
    if (name === 'accept' && value === '*/*') continue; // curl's own default
    if (value !== undefined)
      parts.push(`-H ${quote(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`)}`);
  }
  if (body !== '') {
    parts.push(`--data-binary ${quote(body.length > MAX_BODY ? body.slice(0, MAX_BODY) : body)}`);
  }
  parts.push(quote(url));
  const line = parts.join(' ');
  return body.length > MAX_BODY ? `${line}  # body cut at ${MAX_BODY} characters` : line;
}
