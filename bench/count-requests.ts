// Preloaded into a server process (`node --import ./dist/bench/count-requests.js …`) to count the HTTP
// requests it receives without touching its code: Node publishes each one on the
// `http.server.request.start` diagnostics channel. The count goes to the file named by
// PETKIT_BENCH_COUNT_FILE, every 20 ms while it changes and at exit.
import { subscribe } from 'node:diagnostics_channel';
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.PETKIT_BENCH_COUNT_FILE;
if (file !== undefined && file !== '') {
  let count = 0;
  let written = -1;
  const flush = (): void => {
    if (count === written) return;
    // Written aside and renamed into place: a reader never sees the file empty, half-written.
    writeFileSync(`${file}.tmp`, String(count));
    renameSync(`${file}.tmp`, file);
    written = count;
  };
  subscribe('http.server.request.start', () => {
    count += 1;
  });
  setInterval(flush, 20).unref();
  process.on('exit', flush);
  flush();
}
