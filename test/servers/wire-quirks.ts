// Targets that depart from the contract on the wire in ways the hostile ones (hostile.ts) do not: each
// is the reference server with one habit, served through serveHostile. Test code only.
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { HostileServer } from './hostile.js';
import type { RawRequest, RawResponse } from './reference.js';

const isListPets = (request: RawRequest) => request.method === 'GET' && request.pathname === '/v1/pets';
const isGetPet = (request: RawRequest) =>
  request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(request.pathname);

function send(res: ServerResponse, response: RawResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** Sends every getPet 200 as `change` makes it, every other answer as it is. */
function sendChangingGetPet200(
  request: RawRequest,
  response: RawResponse,
  res: ServerResponse,
  change: (response: RawResponse) => RawResponse,
): void {
  send(res, isGetPet(request) && response.status === 200 ? change(response) : response);
}

/**
 * The answer written to the socket as bytes, its Content-Length `length` whatever the body's (node:http
 * refuses to write a body longer than its Content-Length); the connection kept open.
 */
function sendFramed(res: ServerResponse, response: RawResponse, length: number): void {
  const headers = { ...response.headers, 'content-length': String(length) };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  res.socket?.write(`HTTP/1.1 ${response.status} X\r\n${head.join('')}\r\n${response.body}`);
  res.detachSocket(res.socket as NonNullable<typeof res.socket>);
}

export const WIRE_QUIRKS = {
  /**
   * Every 401 with two WWW-Authenticate fields, a Basic challenge before the Bearer one (RFC 9110
   * §11.6.1 lets a server offer several): a client reads them as one list, `Basic realm="legacy", Bearer …`.
   */
  basicThenBearer: {
    name: 'basic-then-bearer',
    does: 'offers a Basic challenge before the Bearer one on every 401, in two WWW-Authenticate fields',
    answer: (_request, response, res) => {
      if (response.status !== 401) return send(res, response);
      const fields = Object.entries(response.headers).flatMap(([name, value]) =>
        name === 'www-authenticate' ? [name, 'Basic realm="legacy, not Bearer"', name, value] : [name, value],
      );
      res.writeHead(401, fields);
      res.end(response.body);
    },
  },
  /** A Content-Length 10 bytes short of every listPets 200's body: the body read ends 10 bytes early. */
  shortContentLength: {
    name: 'short-content-length',
    does: "sends every listPets 200 with a Content-Length 10 bytes short of its body's length",
    answer: (request, response, res) =>
      isListPets(request) && response.status === 200
        ? sendFramed(res, response, Buffer.byteLength(response.body) - 10)
        : send(res, response),
  },
  /**
   * Every 404 a JSON text with a comma missing, just after it echoes the bearer token it was sent:
   * `{"code":"not_found","message":"No pet for test-key" "status":404}`.
   */
  commaMissingAfterKey: {
    name: 'comma-missing-after-key',
    does: 'answers every 404 with JSON missing a comma, right after the bearer token it echoes',
    answer: (request, response, res) => {
      if (response.status !== 404) return send(res, response);
      const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      send(res, { ...response, body: `{"code":"not_found","message":"No pet for ${token}" "status":404}` });
    },
  },
  /** An editor's "UTF-8 with BOM": U+FEFF before every listPets JSON body. */
  bomJson: {
    name: 'bom-json',
    does: 'puts a byte-order mark (U+FEFF) before the JSON body of every listPets answer',
    answer: (request, response, res) =>
      send(res, isListPets(request) ? { ...response, body: `\uFEFF${response.body}` } : response),
  },
  /** A trace header of 20,000 characters: a header section over Node's 16 KiB. */
  bigHeaderOnGetPet: {
    name: 'big-header-on-get-pet',
    does: 'adds a 20,000-character x-trace header to every getPet answer',
    answer: (request, response, res) =>
      send(
        res,
        isGetPet(request)
          ? { ...response, headers: { ...response.headers, 'x-trace': 'a'.repeat(20_000) } }
          : response,
      ),
  },
  /** An interim 100 (Continue) before every createPet answer, though no request asks for one. */
  continueOnCreatePet: {
    name: 'continue-on-create-pet',
    does: 'sends an interim 100 (Continue) before every createPet answer, unasked',
    answer: (request, response, res) => {
      if (request.method === 'POST') res.writeContinue();
      send(res, response);
    },
  },
  /** Error messages in ISO-8859-1 under application/json: `ungültig` with ü as the one byte 0xFC. */
  latin1Errors: {
    name: 'latin1-errors',
    does: 'writes every 400 body in ISO-8859-1, its message ending in "(ungültig)", under application/json',
    answer: (_request, response, res) => {
      if (response.status !== 400) return send(res, response);
      const error = JSON.parse(response.body) as { message: string };
      const body = Buffer.from(
        JSON.stringify({ ...error, message: `${error.message} (ungültig)` }),
        'latin1',
      );
      res.writeHead(400, response.headers);
      res.end(body);
    },
  },
  /** The bearer token sent, echoed in the name of a header (`x-seen-<token>: 1`) of every answer. */
  keyInHeaderName: {
    name: 'key-in-header-name',
    does: 'echoes the bearer token it was sent in the name of a header, x-seen-<token>, on every answer',
    answer: (request, response, res) => {
      const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const name = token === undefined ? undefined : `x-seen-${token.replace(/[^\w.!#$%&'*^`|~+-]/g, '')}`;
      send(
        res,
        name === undefined ? response : { ...response, headers: { ...response.headers, [name]: '1' } },
      );
    },
  },
  /**
   * Compresses what a client accepts in gzip, and on that path (a compressing proxy in front of it,
   * say) loses the X-RateLimit-* headers; an answer not compressed keeps them.
   */
  gzipLosesRateLimit: {
    name: 'gzip-loses-rate-limit',
    does: 'gzips every answer to a client that accepts gzip, without its X-RateLimit-* headers',
    answer: (request, response, res) => {
      if (!/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return send(res, response);
      const headers = Object.fromEntries(
        Object.entries(response.headers).filter(([name]) => !/^x-ratelimit-/i.test(name)),
      );
      res.writeHead(response.status, { ...headers, 'content-encoding': 'gzip' });
      res.end(gzipSync(response.body));
    },
  },
  /**
   * Every 401 in UTF-16LE (JSON's encoding by RFC 4627, which RFC 8259 §8.1 ended), echoing the
   * bearer token it was sent: read as UTF-8, a NUL beside each character of the key.
   */
  utf16EchoesKey: {
    name: 'utf16-echoes-key',
    does: 'answers every 401 in UTF-16LE (charset=utf-16le), its message echoing the bearer token it was sent',
    answer: (request, response, res) => {
      if (response.status !== 401) return send(res, response);
      const token = /^\S+ +(\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '(none)';
      const error = { ...(JSON.parse(response.body) as object), message: `Not a key: ${token}` };
      res.writeHead(401, { ...response.headers, 'content-type': 'application/json; charset=utf-16le' });
      res.end(Buffer.from(JSON.stringify(error), 'utf16le'));
    },
  },
  /**
   * Every getPet 200 in UTF-8, labelled ISO-8859-1 (a framework's default charset): a client that
   * decodes by the label reads `Zoë` as `ZoÃ«`.
   */
  utf8LabelledLatin1: {
    name: 'utf8-labelled-latin1',
    does: 'labels every getPet 200, written in UTF-8, application/json; charset=iso-8859-1',
    answer: (request, response, res) =>
      sendChangingGetPet200(request, response, res, (pet) => ({
        ...pet,
        headers: { ...pet.headers, 'content-type': 'application/json; charset=iso-8859-1' },
      })),
  },
  /**
   * A JSON object naming a member twice (a serializer that writes a default, then the value): JSON.parse
   * keeps the last (the right id), a client whose parser keeps the first reads pet 999999.
   */
  namesIdTwice: {
    name: 'names-id-twice',
    does: 'writes every getPet 200 as {"id":999999,"id":N,…}',
    answer: (request, response, res) =>
      sendChangingGetPet200(request, response, res, (pet) => ({
        ...pet,
        body: pet.body.replace(/^\{/, '{"id":999999,'),
      })),
  },
  /** A body labelled gzip that is not (a proxy that sets the header twice, compresses once). */
  corruptGzipOnGetPet: {
    name: 'corrupt-gzip-on-get-pet',
    does: 'answers every getPet with Content-Encoding: gzip over a body that is not gzip',
    answer: (request, response, res) =>
      send(
        res,
        isGetPet(request)
          ? { ...response, headers: { ...response.headers, 'content-encoding': 'gzip' } }
          : response,
      ),
  },
  /** Brotli on every answer, though every request accepts gzip and deflate alone (Node's fetch decodes it all the same). */
  brotliUnasked: {
    name: 'brotli-unasked',
    does: 'compresses every answer in br, which the request (Accept-Encoding: gzip, deflate) did not accept',
    answer: (_request, response, res) => {
      res.writeHead(response.status, { ...response.headers, 'content-encoding': 'br' });
      res.end(brotliCompressSync(response.body));
    },
  },
} satisfies Record<string, HostileServer>;
