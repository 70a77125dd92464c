// The servers a hostile-proxy test stands up on 127.0.0.1: an upstream or a bystander that records
// every connection and request it gets, and answers as the test says. Test code only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
}

export interface Recording {
  readonly origin: string;
  readonly port: number;
  /** Requests received, in order. */
  readonly requests: Received[];
  /** TCP connections accepted, whether or not a request came on them. */
  readonly connections: () => number;
  close(): Promise<void>;
}

/** A JSON 200 of `[]`, the answer of a listPets that keeps the contract's shape. */
export function answerEmptyList(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
  res.end('[]');
}

/** Starts a recording server on 127.0.0.1 with a port of its own. */
export async function recording(
  answer: (req: IncomingMessage, res: ServerResponse) => void = answerEmptyList,
): Promise<Recording> {
  const requests: Received[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    answer(req, res);
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * An upstream on a raw socket: `answer` is given each connection's first request head as it came (the
 * proxy's own headers, before any parser reads them) and writes what it likes. Closed, its sockets
 * destroyed, by the function it pushes on `closers`.
 */
export async function rawUpstream(
  answer: (socket: Socket, head: string, rest: string) => void,
  closers: (() => Promise<void> | void)[],
): Promise<{ upstream: string; heads: string[] }> {
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const raw = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', (data: Buffer) => {
      const [head = '', ...rest] = data.toString('latin1').split('\r\n\r\n');
      heads.push(head);
      answer(socket, head, rest.join('\r\n\r\n'));
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        raw.close(() => resolve());
      }),
  );
  return { upstream: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`, heads };
}

/** `server` listening on a free port of 127.0.0.1, closed by the function it pushes on `closers`: its base URL. */
export async function listening(server: Server, closers: (() => Promise<void> | void)[]): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}
