// A node:http server on 127.0.0.1 and a free port that serves a fixed set of files to the browser
// tests; anything else is a loud 404, so a request that should have been intercepted fails the test.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticFile {
  readonly type: string;
  readonly body: string | Buffer;
}

export interface StaticServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function serveStatic(files: Readonly<Record<string, StaticFile>>): Promise<StaticServer> {
  const http = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (file === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not served by the test page: ${req.url}`);
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
