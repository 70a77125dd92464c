// How the node:http adapter writes an answer: Content-Length (and Connection: close when the
// connection cannot carry another request) go on the wire, and the reply's headers, the core's own
// (its journal reads them after, a batch at a time), are left as they were.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openAnswers, write } from './node-write.js';
import type { Reply } from './responses.js';
import { errorReply, reply } from './responses.js';

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** Serves `answer` once and answers what the client received and the reply's headers once written. */
async function served(answer: () => Reply, body?: string, afterBody = false) {
  let after: Record<string, string> | undefined;
  let before: Record<string, string> | undefined;
  server = http.createServer((incoming, outgoing) => {
    const made = answer();
    before = { ...made.headers };
    const go = () => {
      write(incoming, outgoing, made, openAnswers());
      after = { ...made.headers };
    };
    // A 413 is written before the body is read, as the mock does.
    if (made.status === 413 && !afterBody) go();
    else incoming.resume().on('end', go);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // A client that keeps its connections (agent: false asks for Connection: close itself).
  const agent = new http.Agent({ keepAlive: true });
  const received = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/', agent }, resolve);
    request.on('error', reject);
    request.end(body);
  });
  received.resume();
  await new Promise((resolve) => received.on('end', resolve));
  agent.destroy();
  return { received: received.headers, before, after };
}

describe('writing an answer over node:http', () => {
  it('sends Content-Length and leaves the reply its headers as they were', async () => {
    const { received, before, after } = await served(() =>
      reply(200, '{"ok":"é"}', { 'x-ratelimit-limit': '60' }),
    );
    expect(received['content-length']).toBe('11');
    expect(received['x-ratelimit-limit']).toBe('60');
    expect(after).toEqual(before);
    expect(Object.keys(after ?? {})).toEqual(Object.keys(before ?? {}));
  });

  it('closes a connection whose body was refused part-read, saying so on the wire only', async () => {
    const { received, before, after } = await served(
      () => errorReply('payload_too_large'),
      'x'.repeat(200_000),
    );
    expect(received.connection).toBe('close');
    expect(received['content-length']).toBeDefined();
    expect(after).toEqual(before);
  });

  it('closes after a 413 whose body had all come in already (one packet), as docs/mock.md says', async () => {
    const { received } = await served(() => errorReply('payload_too_large'), 'x'.repeat(20_000), true);
    expect(received.connection).toBe('close');
  });

  it('writes its own length over one the core set, and leaves the core its value', async () => {
    const { received, before, after } = await served(() => reply(200, '[]', { 'content-length': '99' }));
    expect(received['content-length']).toBe('2');
    expect(after).toEqual(before);
    expect(after?.['content-length']).toBe('99');
  });
});
