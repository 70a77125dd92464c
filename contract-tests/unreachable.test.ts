// A target the suite cannot reach: the run stops with exit 2, and the message says what to try for
// the reason it was given (a refused connection, a host name that does not resolve, a certificate
// Node does not trust, a port fetch refuses). A target that answers what cannot be read is told apart:
// it is there, and the message says what was wrong with its answer.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, maxHeaderSize } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { testDir } from '../test/support/temp-dir.js';
import { runContract } from './run.js';

/** fetch failing as undici's does: a TypeError whose cause carries the system's or TLS's code. */
const failing = (message: string, code?: string) =>
  (async () => {
    throw new TypeError('fetch failed', { cause: Object.assign(new Error(message), code ? { code } : {}) });
  }) as typeof fetch;

it.each([
  ['connect ECONNREFUSED 127.0.0.1:4010', 'ECONNREFUSED', 'Is the server running, and is --base-url right?'],
  ['getaddrinfo ENOTFOUND staging.example', 'ENOTFOUND', 'Is the host name in --base-url right?'],
  [
    'self-signed certificate',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    "Node does not trust the server's TLS certificate: to trust its CA, run with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.",
  ],
  [
    "Hostname/IP does not match certificate's altnames",
    'ERR_TLS_CERT_ALTNAME_INVALID',
    "The server's TLS certificate does not hold for this name or this date.",
  ],
  [
    'bad port',
    undefined,
    'fetch refuses this port (one the Fetch standard blocks, such as 6000 or 6665 to 6669): serve the target on another.',
  ],
])('%s: says what to try', async (message, code, hint) => {
  const report = await runContract({
    baseUrl: 'http://staging.example/v1',
    apiKey: 'k',
    fetch: failing(message, code),
    sleep: async () => undefined,
  });
  expect(report.exitCode).toBe(2);
  expect(report.aborted?.message).toBe(
    `Cannot reach http://staging.example/v1/pets: no response: ${message}. ${hint}`,
  );
});

it('a target that answers a body it cannot read (not in its Content-Encoding): not "cannot reach", but what it answered', async () => {
  // Over real HTTP: undici decodes the body as its Content-Encoding says, and fails on this one.
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    response.end('[] is not gzip');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const report = await runContract({ baseUrl: base, apiKey: 'k', sleep: async () => undefined });
  expect(report.exitCode).toBe(2);
  expect(report.aborted?.message).toBe(
    `${base}/pets answered 200, but its body could not be read: incorrect header check. The suite reads a body as sent, decoded by its Content-Encoding (gzip, deflate, br), up to 4 MiB.`,
  );
  // Asks for gzip and decodes it, as the suite did: curl then fails on the body as the suite did.
  expect(report.aborted?.curl).toBe(
    `curl -i '${base}/pets' -H 'accept: application/json' -H "authorization: Bearer $API_KEY" -H 'accept-encoding: gzip, deflate' --compressed`,
  );
});

/** A server that answers every request with these bytes, then closes: what no HTTP library would send. */
async function rawServer(answer: string): Promise<string> {
  const server = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const FRAMING =
  "Node's fetch refuses such a response whole, as RFC 9112 lets it: lines end in CRLF, a header value holds no " +
  'control character (RFC 9110 §5.5), and a body is framed by Content-Length or Transfer-Encoding, never both. ' +
  'Fix what the server (or a proxy in front of it) writes.';

it.each([
  [
    'lines ended by LF alone',
    'HTTP/1.1 200 OK\ncontent-type: application/json\ncontent-length: 2\n\n[]',
    `Invalid header value char (HPE_INVALID_HEADER_TOKEN). ${FRAMING}`,
  ],
  [
    'an ESC byte in a header value',
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-trace: a\u001bb\r\ncontent-length: 2\r\n\r\n[]',
    `Invalid header value char (HPE_INVALID_HEADER_TOKEN). ${FRAMING}`,
  ],
  [
    'both Transfer-Encoding and Content-Length',
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n',
    `Content-Length can't be present with Transfer-Encoding (HPE_UNEXPECTED_CONTENT_LENGTH). ${FRAMING}`,
  ],
  [
    'no status line (another protocol on the port)',
    'SSH-2.0-OpenSSH_9.6\r\n',
    'Expected HTTP/ (HPE_INVALID_CONSTANT). The answer does not begin with HTTP/1.x: does the port speak another protocol (HTTP/2 alone, TLS: then https:// in --base-url)?',
  ],
])(
  'a target that answers, with %s: not "cannot reach", but what was wrong with its answer',
  async (_what, answer, said) => {
    const base = await rawServer(answer);
    const report = await runContract({ baseUrl: base, apiKey: 'k', sleep: async () => undefined });
    expect(report.exitCode).toBe(2);
    expect(report.aborted?.code).toBe('unreachable');
    expect(report.aborted?.message).toBe(`${base}/pets answered, but not in valid HTTP/1.1: ${said}`);
  },
);

const REFUSED = "answered, but Node's HTTP client refuses the answer:";

it.each([
  [
    'a header section over 16 KiB',
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-trace: ${'a'.repeat(20_000)}\r\ncontent-length: 2\r\n\r\n[]`,
    `its header section is larger than the ${maxHeaderSize} bytes Node reads (node --max-http-header-size=N, or NODE_OPTIONS, raises it)`,
  ],
  [
    'an interim 100 (Continue) it was not asked for',
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]',
    "an interim 100 (Continue) came first, which the request did not ask for (it sent no Expect: 100-continue): Node's fetch drops the connection on one, though RFC 9110 §15.2 has a client read past it",
  ],
])(
  'a target that answers with %s: not "cannot reach" nor a TLS port, but what came',
  async (_what, answer, said) => {
    const base = await rawServer(answer);
    const report = await runContract({ baseUrl: base, apiKey: 'k', sleep: async () => undefined });
    expect(report.exitCode).toBe(2);
    expect(report.aborted?.code).toBe('unreachable');
    expect(report.aborted?.message).toBe(
      `${base}/pets ${REFUSED} ${said}. Nothing of the run can be judged.`,
    );
  },
);

it('a target that accepts the connection and never answers: "cannot reach", is the server running', async () => {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const report = await runContract({
    baseUrl: base,
    apiKey: 'k',
    timeoutMs: 200,
    sleep: async () => undefined,
  });
  expect(report.exitCode).toBe(2);
  expect(report.aborted?.message).toBe(
    `Cannot reach ${base}/pets: no response within 200 ms. Is the server running, and is --base-url right?`,
  );
});

/** Listens on a free port of 127.0.0.1 until the test ends; gives the port. */
async function listening(server: ReturnType<typeof createServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

it('https:// to a plain-HTTP port: the reason in words, and use http://', async () => {
  const port = await listening(createServer((_request, response) => response.end('[]')));
  const base = `https://127.0.0.1:${port}/v1`;
  const report = await runContract({ baseUrl: base, apiKey: 'k', sleep: async () => undefined });
  expect(report.exitCode).toBe(2);
  expect(report.aborted?.message).toBe(
    `Cannot reach ${base}/pets: no response: TLS error: wrong version number. The server on that port answers in plain HTTP, not TLS: use http:// in --base-url.`,
  );
});

it('http:// to a TLS port: the connection closed, and try https://', async () => {
  // A self-signed certificate made for the test: the request never gets as far as checking it.
  const dir = testDir('petkit-tls-');
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const server = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_request, response) =>
    response.end('[]'),
  );
  const port = await listening(server);
  const base = `http://127.0.0.1:${port}/v1`;
  const report = await runContract({ baseUrl: base, apiKey: 'k', sleep: async () => undefined });
  expect(report.exitCode).toBe(2);
  expect(report.aborted?.message).toBe(
    `Cannot reach ${base}/pets: no response: other side closed. The server closed the connection without an answer, as a TLS server does to plain HTTP: if it serves TLS on that port, try https:// in --base-url; if not, is the server running, and is --base-url right?`,
  );
});

it.each([
  [
    'to https:// (a plain-HTTP port that sends every client to TLS)',
    301,
    'https://127.0.0.1:1/v1/pets',
    'https://127.0.0.1:1/v1',
  ],
  ['to another host', 308, 'https://api.example/v2/pets?from=old', 'https://api.example/v2'],
])(
  'a first answer that redirects %s: exit 2, where it points and the --base-url to try, not a run of findings on a 3xx',
  async (_what, status, location, base) => {
    const target = await rawServer(
      `HTTP/1.1 ${status} Moved\r\nlocation: ${location}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
    );
    const report = await runContract({ baseUrl: target, apiKey: 'k', sleep: async () => undefined });
    expect(report.exitCode).toBe(2);
    expect(report.aborted?.code).toBe('unreachable');
    expect(report.aborted?.message).toBe(
      `${target}/pets answered ${status}, redirecting to ${location}. The suite follows no redirect (it would send the key wherever one points): if the API is there, run with --base-url ${base}.`,
    );
    expect(report.requests).toBe(1);
  },
);

it('a first answer that redirects elsewhere than a listPets: where it points, and no --base-url guessed', async () => {
  const target = await rawServer(
    'HTTP/1.1 302 Found\r\nlocation: /login?next=%2Fv1%2Fpets\r\ncontent-length: 0\r\nconnection: close\r\n\r\n',
  );
  const report = await runContract({ baseUrl: target, apiKey: 'k', sleep: async () => undefined });
  expect(report.exitCode).toBe(2);
  expect(report.aborted?.message).toBe(
    `${target}/pets answered 302, redirecting to ${new URL('/login?next=%2Fv1%2Fpets', target).href}. The suite follows no redirect (it would send the key wherever one points): is --base-url the API's address?`,
  );
});
