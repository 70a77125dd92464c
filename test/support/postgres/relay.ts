// A TCP relay between a client and the test's PostgreSQL that can stop passing bytes without ending a
// connection: what a frozen server or a network that drops its packets looks like from the client
// (nothing refused, nothing closed; no answer ever comes). On 127.0.0.1, port 0.
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

export interface Relay {
  /** The URL to hand the client: `url` with its host and port those of the relay. */
  readonly url: string;
  /** From now on no byte passes either way, and a new connection reaches nothing; none is closed. */
  freeze(): void;
  /** Bytes pass again, those held first; connections made meanwhile reach the server now. */
  thaw(): void;
  close(): Promise<void>;
}

export async function startRelay(url: string): Promise<Relay> {
  const target = new URL(url);
  let frozen = false;
  const sockets = new Set<Socket>();

  /** What waits for the thaw: bytes held on each side, and connections not yet made upstream. */
  const waiting: (() => void)[] = [];
  /** Bytes and the end of a side (its FIN) go to the other side, or wait while frozen, in order. */
  const pass = (from: Socket, to: () => Socket | undefined): void => {
    const later = (task: () => void) => {
      if (frozen) waiting.push(task);
      else task();
    };
    from.on('data', (chunk: Buffer) => later(() => to()?.write(chunk)));
    from.on('end', () => later(() => to()?.end()));
  };
  // Half-open allowed: a side that ends its writing is not answered with an end of the relay's own (a
  // frozen server never answers a client's goodbye); the other side's end is passed on as it comes.
  const server = createServer({ allowHalfOpen: true }, (client) => {
    sockets.add(client);
    let upstream: Socket | undefined;
    const open = () => {
      upstream = tcpConnect({ port: Number(target.port), host: target.hostname, allowHalfOpen: true });
      sockets.add(upstream);
      pass(upstream, () => client);
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => client.destroy());
    };
    pass(client, () => upstream);
    client.on('error', () => upstream?.destroy());
    client.on('close', () => upstream?.destroy());
    if (frozen) waiting.push(open);
    else open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(address.port);
  return {
    url: relayed.href,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const task of waiting.splice(0)) task();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
