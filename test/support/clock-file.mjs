// Preloaded into a `petkit mock` child process (node --import) so that a test can move its clock:
// Date.now reads the time, in ms since the epoch, from the file PETKIT_TEST_CLOCK_FILE names. Several
// processes given the same file share one clock, which moves only when the test writes it.
import { readFileSync } from 'node:fs';

const file = process.env.PETKIT_TEST_CLOCK_FILE;
if (file !== undefined) Date.now = () => Number(readFileSync(file, 'utf8'));
