// Plain node:http servers for a test, each on 127.0.0.1 and a free port, all closed at once.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServers {
  /** Listens with `listener`; answers the server's origin (`http://127.0.0.1:PORT`). */
  serve(listener: RequestListener): Promise<string>;
  /** Closes every server served so far, their kept-alive connections too (give it to afterEach). */
  closeAll(): Promise<void>;
}

export function testServers(): TestServers {
  const servers: Server[] = [];
  return {
    async serve(listener) {
      const server = createServer(listener);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async closeAll() {
      for (const server of servers.splice(0)) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
