// Targets that misbehave at the level of HTTP itself, for the suite to meet as a user would: each is
// the reference server with one hostile habit on the wire. Test code only.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReference, type RawRequest, type RawResponse, type Served } from './reference.js';

export interface HostileServer {
  readonly name: string;
  readonly does: string;
  /**
   * Answers one request on the wire: with the reference's answer, or in its own hostile way. `seen`
   * counts the requests this server has received, this one included.
   */
  readonly answer: (request: RawRequest, reference: RawResponse, res: ServerResponse, seen: number) => void;
}

const isGetPet = (request: RawRequest) =>
  request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(request.pathname);

function send(res: ServerResponse, response: RawResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** A 429 as the API sends one, asking to retry in `seconds`, over the reference's headers. */
function rateLimited(res: ServerResponse, response: RawResponse, seconds: number): void {
  send(res, {
    status: 429,
    headers: {
      ...response.headers,
      'content-type': 'application/json',
      'retry-after': String(seconds),
      'x-ratelimit-remaining': '0',
    },
    body: JSON.stringify({ code: 'rate_limited', message: `Retry in ${seconds} s.`, status: 429 }),
  });
}

/** Headers and half the body, then a TCP reset. */
function resetMidway(res: ServerResponse, response: RawResponse): void {
  res.writeHead(response.status, {
    ...response.headers,
    'content-length': String(Buffer.byteLength(response.body)),
  });
  res.write(response.body.slice(0, Math.floor(response.body.length / 2)), () =>
    res.socket?.resetAndDestroy(),
  );
}

/**
 * The answer with an `x-trace` header holding an ESC byte, written to the socket as bytes (node:http
 * refuses to write such a header), then the connection closed.
 */
function sendWithEscape(res: ServerResponse, response: RawResponse): void {
  const headers = {
    ...response.headers,
    'x-trace': 'req\u001b[31m-1',
    'content-length': String(Buffer.byteLength(response.body)),
    connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  res.socket?.end(`HTTP/1.1 ${response.status} X\r\n${head.join('')}\r\n${response.body}`);
}

export const HOSTILE_SERVERS: readonly HostileServer[] = [
  {
    name: 'resets-mid-response',
    does: "resets the connection halfway through every getPet response's body",
    answer: (request, response, res) =>
      isGetPet(request) ? resetMidway(res, response) : send(res, response),
  },
  {
    name: 'never-ends',
    does: 'sends the headers and part of every getPet body, then nothing more, never ending it',
    answer: (request, response, res) => {
      if (!isGetPet(request)) return send(res, response);
      res.writeHead(response.status, { ...response.headers, 'content-length': '1000000' });
      res.write(response.body.slice(0, 10));
    },
  },
  {
    name: 'control-character-in-header',
    does: 'answers every getPet with a header value holding an ESC byte (RFC 9110 §5.5: none may)',
    answer: (request, response, res) =>
      isGetPet(request) ? sendWithEscape(res, response) : send(res, response),
  },
  {
    name: 'two-megabyte-list',
    does: 'answers listPets with a 2 MB JSON array (far past any limit)',
    answer: (request, response, res) => {
      if (request.method !== 'GET' || request.pathname !== '/v1/pets' || response.status !== 200)
        return send(res, response);
      const pet = { id: 1, name: 'x'.repeat(80), categoryId: 1, status: 'available' };
      const pets = Array.from({ length: 16_000 }, (_, i) => ({ ...pet, id: i + 1 }));
      send(res, { ...response, body: JSON.stringify(pets) });
    },
  },
  {
    name: 'endless-body',
    does: 'answers getPet with a body that streams for ever, as fast as it can',
    answer: (request, response, res) => {
      if (!isGetPet(request)) return send(res, response);
      res.writeHead(200, { ...response.headers, 'content-type': 'application/json' });
      const chunk = `[${'0,'.repeat(32_000)}`;
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    },
  },
  {
    name: 'html-as-json',
    does: 'answers every error with an HTML page labelled application/json',
    answer: (_request, response, res) =>
      send(
        res,
        response.status >= 400 ? { ...response, body: '<html><body>Bad Gateway</body></html>' } : response,
      ),
  },
  {
    name: 'retry-after-an-hour',
    does: 'answers every request 429 with Retry-After: 3600',
    answer: (_request, response, res) => rateLimited(res, response, 3600),
  },
  {
    name: 'endless-429',
    does: 'answers every request 429 with Retry-After: 1, for ever',
    answer: (_request, response, res) => rateLimited(res, response, 1),
  },
  {
    name: 'one-answer-per-connection',
    does: 'closes every connection after one answer, without saying so (no Connection: close)',
    answer: (_request, response, res) => {
      res.writeHead(response.status, response.headers);
      res.end(response.body, () => res.socket?.destroy());
    },
  },
  {
    name: 'silent-after-first-answer',
    does: 'answers the first request, then accepts every connection and request but never answers again',
    answer: (_request, response, res, seen) => {
      if (seen === 1) send(res, response);
    },
  },
];

/** Serves a hostile server on 127.0.0.1, on a free port, over a fresh reference. */
export async function serveHostile(server: HostileServer, now?: () => number): Promise<Served> {
  const reference = createReference(now === undefined ? {} : { now });
  let seen = 0;
  const http = createServer((req, res) => {
    seen += 1;
    const order = seen;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const request: RawRequest = {
        method: req.method ?? 'GET',
        pathname: url.pathname,
        query: url.searchParams,
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      server.answer(request, reference(request), res, order);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.closeAllConnections();
        http.close((cause) => (cause ? reject(cause) : resolve()));
      }),
  };
}
