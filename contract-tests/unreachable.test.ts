// A target the suite cannot reach: the run stops with exit 2, and the message says what to try for
// the reason it was given (a refused connection, a host name that does not resolve, a certificate
// Node does not trust, a port fetch refuses).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it, onTestFinished } from 'vitest';
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
});
