// One request over a raw socket, sent byte for byte as given (fetch and http.request refuse most of
// what a hostile client sends), and the one answer read back: status, headers, body.
import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends `bytes` on a new connection and reads one response (by Content-Length, else until close). */
export function rawRequest(origin: string, bytes: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error !== undefined) {
        reject(error);
        return;
      }
      const parsed = parse(Buffer.concat(chunks));
      if (parsed === undefined)
        reject(new Error(`no complete HTTP response (${Buffer.concat(chunks).length} bytes)`));
      else resolve(parsed);
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const parsed = parse(Buffer.concat(chunks));
      if (parsed?.complete) finish();
    });
    socket.on('error', (error) => (chunks.length > 0 ? finish() : finish(error)));
    socket.on('close', () => finish());
    socket.write(bytes);
  });
}

function parse(raw: Buffer): (RawResponse & { complete: boolean }) | undefined {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
  if (Number.isNaN(status)) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(split + 4);
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const body = (length === undefined ? rest : rest.subarray(0, length)).toString('utf8');
  // 1xx answers (100 Continue) come before the real one: skip them.
  if (status < 200) {
    const next = parse(rest);
    return next === undefined ? undefined : next;
  }
  return { status, headers, body, complete: length !== undefined && rest.length >= length };
}
