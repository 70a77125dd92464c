// petkit contract given a flag twice that names where it sends the key or what it writes: refused,
// where node's parseArgs took the last value without a word.
import { expect, it } from 'vitest';
import { captureIo } from '../test/support/contract-io.js';
import { run } from './contract.js';

it('refuses --base-url, --output or --har given twice with two values, and never quotes the key or a password', async () => {
  const base = captureIo();
  expect(
    await run(
      [
        '--api-key',
        'sk_live_12345678',
        '--base-url',
        'http://ci:hunter2@127.0.0.1:2/v1',
        '--base-url=http://127.0.0.1:1/v1',
      ],
      base.io,
    ),
  ).toBe(2);
  expect(base.err()).toBe(
    'petkit contract: --base-url is given twice ("http://***@127.0.0.1:2/v1", then "http://127.0.0.1:1/v1"); give it once.\n',
  );
  const output = captureIo();
  expect(
    await run(
      [
        '--api-key',
        'sk_live_12345678',
        '--base-url',
        'http://127.0.0.1:1/v1',
        '--output',
        'a.json',
        '--output',
        'sk_live_12345678.json',
      ],
      output.io,
    ),
  ).toBe(2);
  expect(output.err()).toBe(
    'petkit contract: --output is given twice ("a.json", then "$API_KEY.json"); give it once.\n',
  );
});
