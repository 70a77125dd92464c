// Requests Node's HTTP parser refuses before the core sees them (headers over the limit, junk): the
// node:http adapter answers them over the raw socket with a JSON Error and the CORS headers, and
// closes the connection. Sent over node:net, since fetch and http.request will not send such requests.
import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ERRORS } from './errors.js';
import { type RunningServer, startServer } from './node-server.js';
import { EXPOSED_HEADERS } from './responses.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RawAnswer {
  statusLine: string;
  headers: Map<string, string>;
  body: string;
  /** The server closed its side (FIN) before the client closed its own. */
  closedByServer: boolean;
}

/** Sends `request` as is and reads until the connection is closed; the client closes only on the server's FIN. */
function exchange(origin: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let closedByServer = false;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      closedByServer = true;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ statusLine, headers, body: raw.slice(split + 4), closedByServer });
    });
    socket.write(request);
  });
}

/** The answer is a complete JSON Error with the given code, its registry status, and the CORS headers. */
function expectJsonError(answer: RawAnswer, code: keyof typeof ERRORS) {
  const { status } = ERRORS[code];
  expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} \\S`));
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  expect(answer.headers.get('access-control-expose-headers')).toBe(EXPOSED_HEADERS);
  expect(answer.headers.get('connection')).toBe('close');
  expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(answer.body)));
  const body = JSON.parse(answer.body) as { code: string; message: string; status: number };
  expect(body).toEqual({ code, message: expect.any(String), status });
  expect(answer.closedByServer).toBe(true);
  return body;
}

const KEY = 'authorization: Bearer demo-free\r\n';

describe('startServer: requests refused by the HTTP parser', () => {
  it('answers 431 request_header_too_large to a 20 KB header, as JSON with CORS, and closes', async () => {
    const { origin } = await start();
    const answer = await exchange(
      origin,
      `GET /v1/pets HTTP/1.1\r\nhost: x\r\n${KEY}x-big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    );
    const body = expectJsonError(answer, 'request_header_too_large');
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(body.message).toBe(`The request line and headers are larger than ${maxHeaderSize} bytes.`);
  });
  it('answers 431 to a 20 KB URL too', async () => {
    const { origin } = await start();
    const answer = await exchange(
      origin,
      `GET /v1/pets?x=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nhost: x\r\n\r\n`,
    );
    expectJsonError(answer, 'request_header_too_large');
  });
  it('answers 400 validation_failed to a garbage request line, naming the parse error', async () => {
    const { origin } = await start();
    const body = expectJsonError(await exchange(origin, 'NOT HTTP AT ALL\r\n\r\n'), 'validation_failed');
    expect(body.message).toMatch(/^The request is not valid HTTP\/1\.1 \(HPE_[A-Z_]+\)\.$/);
  });
  it('answers 400 to a header name that is not a token', async () => {
    const { origin } = await start();
    const answer = await exchange(origin, `GET /v1/pets HTTP/1.1\r\nhost: x\r\nbad header: 1\r\n\r\n`);
    expectJsonError(answer, 'validation_failed');
  });
  it('keeps serving, journals nothing and logs no error after refused requests', async () => {
    const errors: string[] = [];
    const { origin, url, mock } = await start({
      logger: { info: () => undefined, error: (line) => errors.push(line) },
    });
    await exchange(origin, `GET /v1/pets HTTP/1.1\r\nx-big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    await exchange(origin, '\x00\x01\x02 garbage\r\n\r\n');
    const res = await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveLength(1);
    expect(mock.journal).toHaveLength(1);
    expect(errors).toEqual([]);
  });
  it('cuts a connection whose request is still being answered, with a 400 for the junk after it, as Node does', async () => {
    const errors: string[] = [];
    const { origin } = await start({ logger: { info: () => undefined, error: (line) => errors.push(line) } });
    // The first request is held in flight (Prefer: delay) when the junk pipelined after it fails to parse.
    const answer = await exchange(
      origin,
      `GET /v1/pets HTTP/1.1\r\nhost: x\r\n${KEY}prefer: delay=500\r\n\r\nJUNK\r\n\r\n`,
    );
    // The whole of what came back is one 400: the pets list never follows it.
    expectJsonError(answer, 'validation_failed');
    expect(errors).toEqual([]);
  });
});

async function start(options: Parameters<typeof startServer>[0] = {}) {
  server = await startServer({ port: 0, host: '127.0.0.1', ...options });
  return server;
}
