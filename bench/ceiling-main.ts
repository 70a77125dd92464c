// The ceiling server as its own process: `node dist/bench/ceiling-main.js --port P [--host H] [--work]`
// (--work: the work-matched ceiling).
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createCeilingListener } from './ceiling.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    work: { type: 'boolean', default: false },
  },
});
const server = createServer(createCeilingListener({ work: values.work }));
server.listen(Number(values.port), values.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : values.port;
  process.stdout.write(`ceiling listening on http://${values.host}:${port}/v1\n`);
});
const stop = (): void => {
  server.close();
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
