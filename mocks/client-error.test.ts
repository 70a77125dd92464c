// Requests Node's HTTP parser refuses before the core sees them (headers over the limit, junk): the
// node:http adapter answers them over the raw socket with a JSON Error and the CORS headers, and
// closes the connection. Sent over node:net, since fetch and http.request will not send such requests.

import { readFileSync } from 'node:fs';
import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ERRORS } from './errors.js';
import { createMock, type Mock } from './mock.js';
import { OUTBOX_LIMIT, type RunningServer, startServer } from './node-server.js';
import { EXPOSED_HEADERS, type Reply } from './responses.js';

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
  /** Every response on the connection, in order (this one is the last). */
  all: RawResponse[];
}

interface RawResponse {
  statusLine: string;
  headers: Map<string, string>;
  body: string;
}

/** Splits what came back on one connection into its responses, by Content-Length. */
function responsesOf(raw: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const split = rest.indexOf('\r\n\r\n');
    if (split < 0) break;
    const [statusLine = '', ...lines] = rest.slice(0, split).split('\r\n');
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    // No length, or one that is not a number of bytes: the rest is its body.
    const declared = Number(headers.get('content-length'));
    const length = Number.isSafeInteger(declared) && declared >= 0 ? declared : rest.length;
    responses.push({ statusLine, headers, body: rest.slice(split + 4, split + 4 + length) });
    rest = rest.slice(split + 4 + length);
  }
  return responses;
}

/** Sends `request` (each string of an array after `gapMs`) and reads until the connection is closed; the client closes only on the server's FIN. */
function exchange(origin: string, request: string | string[], gapMs = 0): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const parts = typeof request === 'string' ? [request] : [...request];
    let timer: NodeJS.Timeout | undefined;
    const sendNext = () => {
      const part = parts.shift();
      if (part === undefined || socket.destroyed) return;
      socket.write(part);
      if (parts.length > 0) timer = setTimeout(sendNext, gapMs);
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      closedByServer = true;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const all = responsesOf(Buffer.concat(chunks).toString('latin1'));
      const last = all.at(-1) ?? { statusLine: '', headers: new Map<string, string>(), body: '' };
      resolve({ ...last, closedByServer, all });
    });
    sendNext();
  });
}

/** Sends `request`, then closes the client's side (a half-close, as `curl --data` cut short does), and reads the answer. */
function halfClosed(origin: string, request: string): Promise<RawAnswer> {
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
      const all = responsesOf(Buffer.concat(chunks).toString('latin1'));
      const last = all.at(-1) ?? { statusLine: '', headers: new Map<string, string>(), body: '' };
      resolve({ ...last, closedByServer, all });
    });
    socket.end(request);
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
/** A key whose 1,000 requests a minute no test here spends. */
const BUSINESS = 'authorization: Bearer demo-business\r\n';

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
  it('answers pipelined requests read whole, in order, before the 400 for the junk after them', async () => {
    const errors: string[] = [];
    const { origin, mock } = await start({
      logger: { info: () => undefined, error: (line) => errors.push(line) },
    });
    // The first request is still in flight (Prefer: delay) when the junk after the second fails to parse.
    const answer = await exchange(
      origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nhost: x\r\n${KEY}prefer: delay=300\r\n\r\n` +
        `GET /v1/pets/2 HTTP/1.1\r\nhost: x\r\n${KEY}\r\nJUNK\r\n\r\n`,
    );
    expect(answer.all.map((response) => response.statusLine)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 400 Bad Request',
    ]);
    expect(JSON.parse(answer.all[0]?.body ?? '')).toHaveLength(1);
    expect(JSON.parse(answer.all[1]?.body ?? '')).toMatchObject({ id: 2 });
    expectJsonError(answer, 'validation_failed');
    expect(mock.journal.map((entry) => entry.status)).toEqual([200, 200]);
    expect(errors).toEqual([]);
  });

  it('answers a body whose chunked framing breaks with its 400 at once, not after a wait for it', async () => {
    // The request is being answered (its body read) when its framing fails: it cannot be answered,
    // so the refusal is its answer. Waiting for its answer first would end in the request timeout's 408.
    const { origin } = await start({ timeouts: { headersMs: 300, requestMs: 600, checkIntervalMs: 50 } });
    const answer = await exchange(
      origin,
      `POST /v1/pets HTTP/1.1\r\nhost: x\r\n${KEY}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n` +
        '5\r\n{"nam\r\nzz\r\n',
    );
    expect(answer.all).toHaveLength(1);
    const body = expectJsonError(answer, 'validation_failed');
    expect(body.message).toBe(
      "The request is not valid HTTP/1.1: a chunk's size is not a hexadecimal number (RFC 9112, section 7.1) (HPE_INVALID_CHUNK_SIZE).",
    );
  });

  it('says in words what the parser refused, not its code alone', async () => {
    const { origin } = await start();
    const refused = async (request: string, halfClose = false) => {
      const answer = halfClose ? await halfClosed(origin, request) : await exchange(origin, request);
      return expectJsonError(answer, 'validation_failed').message;
    };
    // Each was `The request is not valid HTTP/1.1 (HPE_…).` and nothing more.
    const post = `POST /v1/pets HTTP/1.1\r\nhost: x\r\n${KEY}content-type: application/json\r\n`;
    expect(await refused(`${post}content-length: 100\r\n\r\n{"name":"a"}`, true)).toBe(
      'The request is not valid HTTP/1.1: the connection was closed before the request ended (a body shorter than its Content-Length, or a head cut short) (HPE_INVALID_EOF_STATE).',
    );
    expect(await refused(`${post}content-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`)).toBe(
      'The request is not valid HTTP/1.1: its Transfer-Encoding does not end in chunked, or comes beside a Content-Length (RFC 9112, section 6.1): send one of them (HPE_INVALID_TRANSFER_ENCODING).',
    );
    expect(await refused('GET /v1/pets/\u00e9 HTTP/1.1\r\nhost: x\r\n\r\n')).toBe(
      'The request is not valid HTTP/1.1: its request target has a character a URL does not carry as it is (a control character, or a byte beyond ASCII: percent-encode it) (HPE_INVALID_URL).',
    );
    expect(await refused('GET /v1/my pets HTTP/1.1\r\nhost: x\r\n\r\n')).toBe(
      'The request is not valid HTTP/1.1: its request line is not a method, a target and HTTP/1.1, each after one space (a space in a path is sent as %20) (HPE_INVALID_CONSTANT).',
    );
    expect(await refused('GET /v1/pets HTTP/1.1\r\nhost: x\r\nx-a: 1\r\n folded\r\n\r\n')).toBe(
      'The request is not valid HTTP/1.1: a header line is not "Name: value" (a name with a space or no colon, a control character in a value, or a line folded onto the next) (HPE_INVALID_HEADER_TOKEN).',
    );
  });

  it('answers a request read whole before the 400 of one pipelined after it whose chunked framing breaks', async () => {
    // The first is still in flight (Prefer: delay) when the second's body fails: the client reads the
    // answers in the order it sent the requests, so the first's goes first, then the second's 400.
    const { origin, mock } = await start();
    const answer = await exchange(
      origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nhost: x\r\n${KEY}prefer: delay=300\r\n\r\n` +
        `POST /v1/pets HTTP/1.1\r\nhost: x\r\n${KEY}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n` +
        '5\r\n{"nam\r\nzz\r\n',
    );
    expect(answer.all.map((response) => response.statusLine)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 400 Bad Request',
    ]);
    expect(JSON.parse(answer.all[0]?.body ?? '')).toHaveLength(1);
    const body = expectJsonError(answer, 'validation_failed');
    expect(body.message).toBe(
      "The request is not valid HTTP/1.1: a chunk's size is not a hexadecimal number (RFC 9112, section 7.1) (HPE_INVALID_CHUNK_SIZE).",
    );
    expect(mock.journal.map((entry) => entry.status)[0]).toBe(200);
  });
});

/** A mock that answers /v1/pets/13 with `reply` (one node cannot write), and the errors it logs. */
function brokenOn13(reply: Reply): { broken: Mock; errors: string[] } {
  const errors: string[] = [];
  const mock = createMock({ logger: { info: () => undefined, error: (line) => errors.push(line) } });
  const broken: Mock = {
    ...mock,
    answer: (call, kind) =>
      call.url.pathname === '/v1/pets/13' ? Promise.resolve(reply) : mock.answer(call, kind),
  };
  return { broken, errors };
}

describe('startServer: answers written together', () => {
  it('answers a pipeline three outboxes long each with its own answer, in order, counted in order', async () => {
    const { origin, mock } = await start();
    const count = 3 * OUTBOX_LIMIT + 1;
    // Every seventh asks for a pet that does not exist: its 404 must land in its place, not beside it.
    const ids = Array.from({ length: count }, (_, i) => (i % 7 === 6 ? 9_999 : (i % 20) + 1));
    const requests = ids.map(
      (id, i) =>
        `GET /v1/pets/${id} HTTP/1.1\r\nhost: x\r\n${BUSINESS}${i === count - 1 ? 'connection: close\r\n' : ''}\r\n`,
    );
    const answer = await exchange(origin, requests.join(''));
    expect(answer.all).toHaveLength(count);
    const seen = answer.all.map((response) => {
      const body = JSON.parse(response.body) as { id?: number; code?: string };
      return body.code ?? body.id;
    });
    expect(seen).toEqual(ids.map((id) => (id === 9_999 ? 'not_found' : id)));
    const remaining = answer.all.map((response) => Number(response.headers.get('x-ratelimit-remaining')));
    expect(remaining).toEqual(ids.map((_, i) => 1_000 - 1 - i));
    expect(mock.journal.map((entry) => entry.path)).toEqual(ids.map((id) => `/v1/pets/${id}`));
  });
  it('answers 500 to an answer node refuses to write, logs it, and still writes the answers around it', async () => {
    // The answer to /v1/pets/13 carries a header value node will not write.
    const { broken, errors } = brokenOn13({ status: 200, headers: { 'x-broken': 'a\nb' }, body: '{}' });
    const { origin } = await start({ mock: broken });
    const answer = await exchange(
      origin,
      [1, 13, 2]
        .map(
          (id, i) =>
            `GET /v1/pets/${id} HTTP/1.1\r\nhost: x\r\n${BUSINESS}${i === 2 ? 'connection: close\r\n' : ''}\r\n`,
        )
        .join(''),
    );
    expect(answer.all.map((response) => response.statusLine)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 500 Internal Server Error',
      'HTTP/1.1 200 OK',
    ]);
    expect(JSON.parse(answer.all[1]?.body ?? '')).toMatchObject({ code: 'internal_error', status: 500 });
    expect(answer.all[1]?.headers.has('x-broken')).toBe(false);
    expect(JSON.parse(answer.all[2]?.body ?? '')).toMatchObject({ id: 2 });
    expect(errors).toEqual([expect.stringMatching(/^petkit mock: .*x-broken/)]);
  });

  it('cuts the connection when an answer fails after its head, never writing another body under that head', async () => {
    // The answer to /v1/pets/13 has a body node refuses once the head is written (not text, not bytes).
    const { broken, errors } = brokenOn13({ status: 200, headers: {}, body: 42 as unknown as string });
    const { origin } = await start({ mock: broken });
    const answer = await exchange(
      origin,
      [1, 13, 2].map((id) => `GET /v1/pets/${id} HTTP/1.1\r\nhost: x\r\n${BUSINESS}\r\n`).join(''),
    );
    // The first answer whole; then the connection closed: no head of the failed answer with
    // another's body after it, and nothing of the third (its request went with the connection).
    expect(answer.all.map((response) => response.statusLine)).toEqual(['HTTP/1.1 200 OK']);
    expect(JSON.parse(answer.all[0]?.body ?? '')).toMatchObject({ id: 1 });
    expect(answer.closedByServer).toBe(true);
    expect(errors).toEqual([expect.stringMatching(/^petkit mock: /)]);
  });
  it('answers pipelined creates, whose bodies are read before they are answered, in order among the reads', async () => {
    const { origin } = await start({ pets: 10 });
    const count = 2 * OUTBOX_LIMIT + 3;
    const requests = Array.from({ length: count }, (_, i) => {
      const close = i === count - 1 ? 'connection: close\r\n' : '';
      if (i % 3 !== 0) return `GET /v1/pets/${(i % 10) + 1} HTTP/1.1\r\nhost: x\r\n${BUSINESS}${close}\r\n`;
      const body = JSON.stringify({ name: `Pet ${i}`, categoryId: 1 });
      return (
        `POST /v1/pets HTTP/1.1\r\nhost: x\r\n${BUSINESS}content-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n${close}\r\n${body}`
      );
    });
    const answer = await exchange(origin, requests.join(''));
    expect(answer.all.map((response) => response.statusLine.split(' ')[1])).toEqual(
      requests.map((_, i) => (i % 3 === 0 ? '201' : '200')),
    );
    let created = 10;
    answer.all.forEach((response, i) => {
      const pet = JSON.parse(response.body) as { id: number; name: string };
      if (i % 3 === 0) {
        created += 1;
        expect(pet).toEqual({ id: created, name: `Pet ${i}`, categoryId: 1 });
        expect(response.headers.get('location')).toBe(`/v1/pets/${created}`);
      } else expect(pet.id).toBe((i % 10) + 1);
    });
  });
});

describe('startServer: refusals Node would make bare', () => {
  it('answers an HTTP/1.1 request without Host with a JSON 400', async () => {
    const { origin, mock } = await start();
    const body = expectJsonError(
      await exchange(origin, `GET /v1/pets HTTP/1.1\r\n${KEY}\r\n`),
      'validation_failed',
    );
    expect(body.message).toBe('An HTTP/1.1 request must carry a Host header (RFC 9112, section 3.2).');
    expect(mock.journal).toEqual([]);
  });
  it('answers a request with two Host lines with a JSON 400 (RFC 9112: which host is meant is unknown)', async () => {
    const { origin, mock } = await start();
    for (const hosts of [
      'host: 127.0.0.1\r\nhost: evil.test\r\n',
      'Host: evil.test\r\nHOST: 127.0.0.1\r\n',
    ]) {
      const answer = await exchange(origin, `GET /__petkit/health HTTP/1.1\r\n${hosts}\r\n`);
      const body = expectJsonError(answer, 'validation_failed');
      expect(body.message).toBe('A request must carry one Host header, not 2 (RFC 9112, section 3.2).');
    }
    expect(mock.journal).toEqual([]);
  });
  it('answers 431 to more header lines than it reads, rather than answering without the lines past them', async () => {
    const { origin, mock } = await start();
    // Node keeps the first 1,000 lines and drops the rest unsaid: the key after them was read as
    // missing (401 missing_api_key to a client that sent one).
    const filler = 'a:\r\n'.repeat(999);
    const answer = await exchange(
      origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nhost: x\r\n${filler}${BUSINESS}connection: close\r\n\r\n`,
    );
    const body = expectJsonError(answer, 'request_header_too_large');
    expect(body.message).toBe('The request has more than 1000 header lines.');
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(mock.journal).toEqual([]);
    // 1,000 lines, the key the last of them, are read whole.
    const whole = await exchange(
      origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nhost: x\r\n${'a:\r\n'.repeat(997)}${BUSINESS}connection: close\r\n\r\n`,
    );
    expect(whole.statusLine).toBe('HTTP/1.1 200 OK');
    // Host after the 1,001st line (1,002nd here; node:http's client puts it after the headers it is given) was
    // dropped with them, and the request told it carried no Host (400).
    const hostLast = await exchange(
      origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\n${filler}a:\r\n${BUSINESS}host: x\r\nconnection: close\r\n\r\n`,
    );
    expect(expectJsonError(hostLast, 'request_header_too_large').message).toBe(
      'The request has more than 1000 header lines.',
    );
  });
  it('reads an Authorization or Content-Type sent on two lines as both, as in process: not the first alone', async () => {
    const { origin, mock } = await start();
    // Node keeps the first line of these and drops the other unsaid: a valid key with a wrong one
    // after it was served as the valid one (200), where MSW and mock.request read both: two
    // credentials, which one is meant unknown (400, RFC 6750 §3.1).
    const twice = (lines: string, body = '') =>
      exchange(
        origin,
        `${body === '' ? 'GET /v1/pets?limit=1' : 'POST /v1/pets'} HTTP/1.1\r\nhost: x\r\n${lines}content-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
    const keys = await twice(`${BUSINESS}authorization: Bearer not-a-key\r\n`);
    const inProcess = await mock.request('/v1/pets?limit=1', {
      headers: [
        ['authorization', 'Bearer demo-business'],
        ['authorization', 'Bearer not-a-key'],
      ],
    });
    expect(inProcess.status).toBe(400);
    expect(keys.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(keys.body)).toEqual(await inProcess.json());
    expect(JSON.parse(keys.body)).toEqual({
      code: 'validation_failed',
      message:
        'The request carries 2 credentials in Authorization (the header sent more than once, or several values in one), and which one is meant is unknown; send one, "Authorization: Bearer <API_KEY>".',
      status: 400,
    });
    expect(keys.headers.get('www-authenticate')).toBe('Bearer realm="pets", error="invalid_request"');
    expect(inProcess.headers.get('www-authenticate')).toBe('Bearer realm="pets", error="invalid_request"');
    const pet = '{"name":"Twice","categoryId":1}';
    const types = await twice(
      `${BUSINESS}content-type: application/json\r\ncontent-type: text/plain\r\n`,
      pet,
    );
    expect(types.statusLine).toBe('HTTP/1.1 415 Unsupported Media Type');
    expect(JSON.parse(types.body)).toEqual({
      code: 'unsupported_media_type',
      message:
        'The body must be application/json; this request sent Content-Type "application/json, text/plain".',
      status: 415,
    });
    // One line of each, in any case, is read as before.
    const once = await twice(
      `Authorization: Bearer demo-business\r\nContent-Type: application/json\r\n`,
      pet,
    );
    expect(once.statusLine).toBe('HTTP/1.1 201 Created');
  });
  it('refuses a fragment in the request target with a 400 that says so, where fetch drops it', async () => {
    const { origin, mock } = await start();
    const get = (target: string) =>
      exchange(origin, `GET ${target} HTTP/1.1\r\nhost: x\r\n${BUSINESS}connection: close\r\n\r\n`);
    // It was the path with its `#` in it: 404 route_not_found, "No route GET /v1/pets#top".
    for (const target of [
      '/v1/pets#top',
      '/v1/pets?limit=1#x',
      'http://x/v1/pets/1#',
      '/__petkit/health#a',
    ]) {
      const refused = await get(target);
      expect(refused.statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(refused.body)).toEqual({
        code: 'validation_failed',
        message:
          'The request target carries a fragment (a # and what follows it), which a client keeps to itself and never sends (RFC 9110, section 4.2.5): send the path and query alone, or %23 for a # in them.',
        status: 400,
      });
      expect(refused.headers.get('connection')).toBe('close');
    }
    expect(mock.journal).toEqual([]);
    // fetch and mock.request drop it before sending, as a browser does: the path alone is answered.
    expect(
      (await fetch(`${origin}/v1/pets/1#top`, { headers: { authorization: 'Bearer demo-business' } })).status,
    ).toBe(200);
    expect(
      (await mock.request('/v1/pets/1#top', { headers: { authorization: 'Bearer demo-business' } })).status,
    ).toBe(200);
  });
  it('answers an absolute-form target by its path as sent, as the same path in origin-form', async () => {
    const { origin, mock } = await start();
    const get = (target: string) =>
      exchange(origin, `GET ${target} HTTP/1.1\r\nhost: x\r\n${BUSINESS}connection: close\r\n\r\n`);
    expect((await get('http://x/v1/pets/1')).statusLine).toBe('HTTP/1.1 200 OK');
    expect((await get('HTTP://127.0.0.1:4010/v1/pets?limit=1')).statusLine).toBe('HTTP/1.1 200 OK');
    expect((await get('http://x:/v1/pets/1')).statusLine).toBe('HTTP/1.1 200 OK');
    // A URL parse resolved these to /v1/pets/1 (200) where the same path in origin-form is no route.
    for (const path of ['/v1/pets/../pets/1', '/v1/pets/%2e%2e/pets/1', '/v1\\pets\\1', '/v1/./pets/1']) {
      const absolute = await get(`http://x${path}`);
      const originForm = await get(path);
      expect(originForm.statusLine).toBe('HTTP/1.1 404 Not Found');
      expect(absolute.statusLine).toBe(originForm.statusLine);
      expect(absolute.body).toBe(originForm.body);
    }
    const paths = mock.journal.map((entry) => entry.path);
    expect(paths).toEqual([
      '/v1/pets/1',
      '/v1/pets?limit=1',
      '/v1/pets/1',
      ...['/v1/pets/../pets/1', '/v1/pets/%2e%2e/pets/1', '/v1\\pets\\1', '/v1/./pets/1'].flatMap((p) => [
        p,
        p,
      ]),
    ]);
  });
  it('answers 400 to a request target it cannot serve, rather than a 404 for a path never sent', async () => {
    const { origin, mock } = await start();
    const send = (line: string) =>
      exchange(origin, `${line} HTTP/1.1\r\nhost: x\r\n${BUSINESS}connection: close\r\n\r\n`);
    const refusals: [string, string][] = [
      // Served as if http: (200).
      ['GET ftp://x/v1/pets/1', 'The request target\'s scheme must be http or https, not "ftp".'],
      ['GET file:///v1/pets/1', 'The request target\'s scheme must be http or https, not "file".'],
      // Each was "No route GET /; the API is under /v1." (404), journaled as GET /.
      ['GET http://x:99999/v1/pets/1', "The request target's host is not valid."],
      ['GET http://[::1/v1/pets', "The request target's host is not valid."],
      ['GET *', 'The request target * is for OPTIONS only (RFC 9112, section 3.2.4).'],
      // Credentials in a target are refused unquoted (RFC 9110, section 4.2.4).
      [
        'GET http://user:demo-business@x/v1/pets/1',
        'The request target carries credentials (user:password@); send them in Authorization.',
      ],
    ];
    for (const [line, message] of refusals) {
      const body = expectJsonError(await send(line), 'validation_failed');
      expect(body.message).toBe(message);
    }
    expect(mock.journal).toEqual([]);
    // OPTIONS * asks what the server allows (RFC 9110, section 9.3.7): "No route OPTIONS /" (404) before.
    const options = await send('OPTIONS *');
    expect(options.statusLine).toBe('HTTP/1.1 204 No Content');
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
  it('closes the connection of a request asking to upgrade: one pipelined after it is not left waiting', async () => {
    const { origin } = await start();
    const answer = await exchange(
      origin,
      `GET /v1/pets/1 HTTP/1.1\r\nhost: x\r\n${KEY}upgrade: websocket\r\nconnection: Upgrade\r\n\r\n` +
        `GET /v1/pets/2 HTTP/1.1\r\nhost: x\r\n${KEY}\r\n`,
    );
    // Before, the first was answered keep-alive and the second never: the connection hung.
    expect(answer.all[0]?.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answer.all[0]?.headers.get('connection')).toBe('close');
    expect(answer.closedByServer).toBe(true);
  });
  it('says Connection: close on an answer written while the server closes', async () => {
    const { origin } = await start();
    const pending = exchange(origin, `GET /v1/pets/1 HTTP/1.1\r\nhost: x\r\n${KEY}prefer: delay=300\r\n\r\n`);
    while (server?.mock.inFlight === 0) await new Promise((r) => setImmediate(r));
    const closing = server?.close();
    const answer = await pending;
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
    // It said keep-alive, and the connection was closed right after.
    expect(answer.headers.get('connection')).toBe('close');
    await closing;
    server = undefined;
  });
  it('answers 505 to an HTTP version other than 1.0 and 1.1, rather than serving it as 1.1', async () => {
    const { origin, mock } = await start();
    for (const [version, shown] of [
      ['HTTP/2.0', 'HTTP/2.0'],
      ['HTTP/0.9', 'HTTP/0.9'],
      ['HTTP/1.2', 'HTTP/1.2'],
      ['HTTP/3.0', 'HTTP/3.0'],
    ] as const) {
      const answer = await exchange(
        origin,
        `GET /v1/pets HTTP/${version.slice(5)}\r\nhost: 127.0.0.1\r\n${KEY}\r\n`,
      );
      expect(answer.statusLine, version).toBe('HTTP/1.1 505 HTTP Version Not Supported');
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('connection')).toBe('close');
      expect(answer.headers.get('x-ratelimit-limit')).toBeUndefined();
      expect(answer.closedByServer).toBe(true);
      expect(JSON.parse(answer.body)).toEqual({
        code: 'http_version_not_supported',
        message: `${shown} is not supported: the mock speaks HTTP/1.1 (and HTTP/1.0); send the request as HTTP/1.1.`,
        status: 505,
      });
    }
    expect(mock.journal).toEqual([]);
  });
  it('keeps the 400 for a request line the parser refuses as a version that is HTTP/1.1 (bare LF, a trailing space)', async () => {
    const { origin } = await start();
    for (const request of [
      `GET /v1/pets HTTP/1.1\nhost: 127.0.0.1\n${KEY}\n`,
      `GET /v1/pets HTTP/1.1 \r\nhost: 127.0.0.1\r\n${KEY}\r\n`,
      `GET /v1/pets HTTP/1.10\r\nhost: 127.0.0.1\r\n\r\n`,
    ]) {
      const body = expectJsonError(await exchange(origin, request), 'validation_failed');
      expect(body.message, request).toBe('The request is not valid HTTP/1.1 (HPE_INVALID_VERSION).');
    }
  });
  it('answers an HTTP/2 connection preface (prior knowledge) with the same 505, not a 400 naming the parser', async () => {
    const { origin } = await start();
    const answer = await exchange(origin, 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    expect(answer.statusLine).toBe('HTTP/1.1 505 HTTP Version Not Supported');
    expect(JSON.parse(answer.body)).toEqual({
      code: 'http_version_not_supported',
      message:
        'HTTP/2 is not supported: the mock speaks HTTP/1.1 (and HTTP/1.0); send the request as HTTP/1.1.',
      status: 505,
    });
  });
  it('answers a method the parser does not know (get, FOO, one 70 characters long) as the core does: 405 with the route’s Allow, naming it', async () => {
    const { origin, mock } = await start();
    const long = 'A'.repeat(70);
    for (const [request, message] of [
      [
        `get /v1/pets HTTP/1.1\r\nhost: 127.0.0.1\r\n${KEY}\r\n`,
        'get is not allowed here; use GET, HEAD, POST, OPTIONS (a method is case-sensitive).',
      ],
      [
        `FOO /v1/pets HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`,
        'FOO is not allowed here; use GET, HEAD, POST, OPTIONS.',
      ],
      [
        `${long} /v1/pets HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`,
        `${'A'.repeat(57)}... is not allowed here; use GET, HEAD, POST, OPTIONS.`,
      ],
    ] as const) {
      const answer = await exchange(origin, request);
      expect(answer.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
      expect(expectJsonError(answer, 'method_not_allowed').message).toBe(message);
    }
    const answer = await exchange(origin, `get /v1/pets/1 HTTP/1.1\r\n\r\n`);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    // A request read whole before it is answered first; the method refused is the one after it.
    const piped = await exchange(
      origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nhost: 127.0.0.1\r\n${KEY}\r\nget /v1/pets HTTP/1.1\r\n\r\n`,
    );
    expect(piped.all.map((one) => one.statusLine)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 405 Method Not Allowed',
    ]);
    expect(JSON.parse(piped.body).message).toMatch(/^get is not allowed here/);
    // Bytes that are no method at all (a TLS handshake on the plain port) keep the parser's 400.
    expectJsonError(await exchange(origin, '\x16\x03\x01\x02\x00\x01\x00'), 'validation_failed');
    expect(mock.journal).toHaveLength(1);
  });
  it('serves an HTTP/1.0 request without Host (it needs none)', async () => {
    const { origin } = await start();
    const answer = await exchange(origin, `GET /v1/pets?limit=1 HTTP/1.0\r\n${KEY}\r\n`);
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
  });
  it('answers an Expect other than 100-continue with a JSON 417 expectation_failed', async () => {
    const { origin } = await start();
    const answer = await exchange(
      origin,
      `POST /v1/pets HTTP/1.1\r\nhost: x\r\n${KEY}expect: 200-ok\r\ncontent-length: 0\r\n\r\n`,
    );
    const body = expectJsonError(answer, 'expectation_failed');
    expect(answer.statusLine).toBe('HTTP/1.1 417 Expectation Failed');
    expect(body.message).toBe('Expect: "200-ok" is not supported; only "100-continue" is.');
  });
  it('serves a request whose Expect is empty (no expectation at all) as one without Expect', async () => {
    const { origin } = await start();
    const answer = await exchange(
      origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nhost: 127.0.0.1\r\n${KEY}expect: \r\nconnection: close\r\n\r\n`,
    );
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
  });
  it('answers 100-continue with another expectation beside it with 417 too, before any body', async () => {
    const { origin } = await start();
    const answer = await exchange(
      origin,
      `POST /v1/pets HTTP/1.1\r\nhost: x\r\n${KEY}expect: 100-continue, foo\r\ncontent-type: application/json\r\ncontent-length: 30\r\n\r\n`,
    );
    const body = expectJsonError(answer, 'expectation_failed');
    expect(answer.statusLine).toBe('HTTP/1.1 417 Expectation Failed');
    expect(body.message).toBe('Expect: "100-continue, foo" is not supported; only "100-continue" is.');
  });
  it('answers CONNECT with a JSON 405 and Allow, and closes', async () => {
    const { origin } = await start();
    const answer = await exchange(
      origin,
      'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n',
    );
    expectJsonError(answer, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('startServer: the Date of its own refusals', () => {
  it("dates the refusals made before the core by the mock's clock, as every other answer", async () => {
    // A moved clock showed in every answer but these: they said the real time.
    const NOW = Date.UTC(2031, 4, 6, 7, 8, 9);
    const mock = createMock({ clock: () => NOW });
    const { origin } = await start({ mock });
    const date = new Date(NOW).toUTCString();
    const answers = [
      await exchange(origin, 'NOT HTTP AT ALL\r\n\r\n'),
      await exchange(origin, 'CONNECT 127.0.0.1:1 HTTP/1.1\r\nhost: 127.0.0.1:1\r\n\r\n'),
      await exchange(origin, `GET /v1/pets HTTP/1.1\r\n${KEY}\r\n`),
      await exchange(origin, `GET /v1/pets HTTP/1.1\r\nhost: a\r\nhost: b\r\n\r\n`),
      await exchange(origin, `GET ftp://x/v1/pets HTTP/1.1\r\nhost: x\r\n\r\n`),
      await exchange(
        origin,
        `POST /v1/pets HTTP/1.1\r\nhost: x\r\nexpect: later\r\ncontent-length: 2\r\n\r\n`,
      ),
      await exchange(origin, `GET /__petkit/health HTTP/1.1\r\nhost: evil.test\r\nconnection: close\r\n\r\n`),
    ];
    expect(answers.map((answer) => answer.statusLine.split(' ')[1])).toEqual([
      '400',
      '405',
      '400',
      '400',
      '400',
      '417',
      '403',
    ]);
    for (const answer of answers) expect(answer.headers.get('date')).toBe(date);
    // The API's answers, as before.
    const api = await exchange(
      origin,
      `GET /v1/pets/1 HTTP/1.1\r\nhost: x\r\n${KEY}connection: close\r\n\r\n`,
    );
    expect(api.headers.get('date')).toBe(date);
  });
});

describe('startServer: timeouts', () => {
  it('has the timeouts docs/mock.md states, checked twice a second', async () => {
    const { timeouts } = await start();
    expect(timeouts).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5_000,
      checkIntervalMs: 500,
    });
    const docs = readFileSync(new URL('../docs/mock.md', import.meta.url), 'utf8');
    expect(docs).toContain('headers timeout 10 s, request timeout 30 s, keep-alive 5 s');
  });
  it('cuts a client dripping header lines at the headers timeout, with a JSON 408', async () => {
    const { origin } = await start({ timeouts: { headersMs: 400, requestMs: 2_000, checkIntervalMs: 50 } });
    const lines = [
      'GET /v1/pets HTTP/1.1\r\n',
      'host: x\r\n',
      ...Array.from({ length: 30 }, (_, i) => `x-drip-${i}: 1\r\n`),
    ];
    const started = performance.now();
    const answer = await exchange(origin, lines, 100);
    const elapsed = performance.now() - started;
    const body = expectJsonError(answer, 'request_timeout');
    expect(body.message).toBe('The request was not received in time (headers 0.4 s, whole request 2 s).');
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(1_400);
  });
  it('cuts a stalled upload at the request timeout', async () => {
    const { origin } = await start({ timeouts: { headersMs: 300, requestMs: 600, checkIntervalMs: 50 } });
    const started = performance.now();
    const answer = await exchange(
      origin,
      `POST /v1/pets HTTP/1.1\r\nhost: x\r\n${KEY}content-type: application/json\r\ncontent-length: 100\r\n\r\n{"name":`,
    );
    const elapsed = performance.now() - started;
    expectJsonError(answer, 'request_timeout');
    expect(elapsed).toBeGreaterThanOrEqual(590);
    expect(elapsed).toBeLessThan(1_600);
  });
  it('refuses timeouts that cannot hold', async () => {
    await expect(startServer({ port: 0, timeouts: { headersMs: 0 } })).rejects.toThrow(
      'Option timeouts.headersMs must be a positive integer (ms), got 0.',
    );
    await expect(startServer({ port: 0, timeouts: { headersMs: 5_000, requestMs: 1_000 } })).rejects.toThrow(
      'must not exceed timeouts.requestMs',
    );
  });
});

async function start(options: Parameters<typeof startServer>[0] = {}) {
  server = await startServer({ port: 0, host: '127.0.0.1', ...options });
  return server;
}
