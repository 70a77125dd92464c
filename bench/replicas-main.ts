// `node dist/bench/replicas-main.js N ARGS…`: N `petkit mock ARGS…` replicas on one port, as behind a
// load balancer that spreads connections in turn (node:cluster's primary accepts each connection
// and hands it to the next replica). With `--state URL` among the arguments they share one database:
// the bench's shared mode with two replicas. SIGTERM or SIGINT stops every replica, then the primary.
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { shebangFlags } from './node-flags.js';

const [count, ...args] = process.argv.slice(2);
const replicas = Number(count);
if (!Number.isInteger(replicas) || replicas < 1) {
  process.stderr.write('usage: replicas-main.js N petkit-mock-arguments…\n');
  process.exit(2);
}

cluster.setupPrimary({
  exec: fileURLToPath(new URL('../cli/main.js', import.meta.url)),
  args: ['mock', ...args],
  // As petkit's shebang runs it.
  execArgv: shebangFlags(fileURLToPath(new URL('../bin/petkit.js', import.meta.url))),
  silent: false,
});
for (let i = 0; i < replicas; i += 1) cluster.fork();
let stopping = false;
cluster.on('exit', (worker, code, signal) => {
  if (stopping) return;
  process.stderr.write(`replica ${worker.process.pid} ended (${signal ?? `code ${code}`}); stopping\n`);
  stop(1);
});

function stop(code: number): void {
  stopping = true;
  const workers = Object.values(cluster.workers ?? {});
  let left = workers.length;
  if (left === 0) process.exit(code);
  for (const worker of workers) {
    worker?.process.once('exit', () => {
      left -= 1;
      if (left === 0) process.exit(code);
    });
    worker?.process.kill('SIGTERM');
  }
}
process.once('SIGTERM', () => stop(0));
process.once('SIGINT', () => stop(0));
