// The page the browser test loads: the README's "In the browser" snippet, verbatim, then a flag
// the test waits for.
import { setupWorker } from 'msw/browser';
import { handlers } from 'petkit/msw';

await setupWorker(...handlers).start();

globalThis.petkitWorkerStarted = true;
