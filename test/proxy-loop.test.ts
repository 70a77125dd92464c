// petkit proxy before an upstream that leads back to it (a relay, a name of this machine's): each
// pass forwarded the request again, one request became thousands of exchanges, until the timeout.
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { PROXY_ERRORS, startProxy } from '../proxy/index.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

it('answers 508 loop_detected once a request has come through 8 petkit proxies, forwarding it no further', async () => {
  // A relay that sends every connection on to the proxy: the proxy's upstream is, in the end, itself.
  let target = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const relay = createServer((socket) => {
    connections += 1;
    const onward = connect(target, '127.0.0.1');
    for (const end of [socket, onward]) {
      sockets.add(end);
      end.on('error', () => end.destroy());
    }
    socket.pipe(onward).pipe(socket);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  );
  const said: string[] = [];
  let exchanges = 0;
  const running = await startProxy({
    upstream: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/v1`,
    upstreamTimeoutMs: 2_000,
    onUpstreamError: (message) => said.push(message),
    onExchange: () => {
      exchanges += 1;
    },
  });
  closers.push(() => running.close());
  target = Number(new URL(running.origin).port);

  const response = await fetch(`${running.url}/pets`);
  expect(response.status).toBe(PROXY_ERRORS.loop_detected);
  expect(await response.json()).toEqual({
    code: 'loop_detected',
    message:
      "petkit proxy: this request has come through a petkit proxy 8 times (its Via): the upstream leads back to one; give --upstream the backend's URL.",
    status: 508,
  });
  // The app's request and 8 passes through the relay, each an exchange of the proxy's; no more.
  expect(connections).toBe(8);
  while (exchanges < 8) await new Promise((resolve) => setImmediate(resolve));
  expect(said).toEqual([
    `a request came back to it through 8 petkit proxies (its Via): the upstream http://127.0.0.1:${(relay.address() as AddressInfo).port} leads back to a petkit proxy, which forwarded it again; answered 508 loop_detected`,
  ]);
});
