// The API key through `petkit contract`, as a user meets it: a key that cannot travel in a header field
// is refused before any request, saying what and where but never the key; a key of other visible
// characters is sent as it is; and a key the target echoes back, in any case or encoding, whole or a
// long part of it, is in no output (stdout, stderr, the JSON report, the HAR).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { run } from '../cli/contract.js';
import type { Report } from '../contract-tests/index.js';
import { createReference, type RawRequest, serve } from './servers/reference.js';
import { captureIo as fakeIo, scratchPerTest } from './support/contract-io.js';

const scratch = scratchPerTest('petkit-key-');

/** Every string in a JSON text, and in the JSON texts among them (a body recorded in a HAR), decoded. */
function strings(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof value === 'string') return [value, ...strings(value)];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap((item) =>
    typeof item === 'string' ? [item, ...strings(item)] : strings(JSON.stringify(item)),
  );
}

const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

test.each([
  ['a line break', 'sekrit-AAAA\nBBBB', 'The API key holds a line break (LF) at position 12'],
  [
    'a trailing carriage return',
    'sekritkey123\r',
    'The API key holds a carriage return (CR) at position 13, its last character',
  ],
  ['a leading tab', '\tsekritkey', 'The API key holds a tab at position 1'],
  ['a space', 'sekrit key', 'The API key holds a space at position 7'],
  ['a NUL', 'sekrit\u0000key', 'The API key holds a NUL (U+0000) at position 7'],
  ['an escape', 'sekrit\u001bkey', 'The API key holds a control character (U+001B) at position 7'],
  ['a letter with a diaeresis', 'sekrïtkey', 'The API key holds a non-ASCII character at position 5'],
  [
    'a zero-width space',
    'sekrit\u200bkey',
    'The API key holds an invisible character (U+200B) at position 7',
  ],
  ['9006 characters', `sekrit${'x'.repeat(9000)}`, 'The API key is 9006 characters long'],
])(
  'a key with %s cannot travel in a header field: refused before any request, exit 2, where and what, never the key',
  async (_what, key, says) => {
    let requests = 0;
    const reference = createReference({ key });
    const served = scratch.serve(
      await serve((request: RawRequest) => {
        requests += 1;
        return reference(request);
      }),
    );
    const dir = scratch.dir();
    const har = join(dir, 'run.har');
    for (const [argv, env] of [
      [['--api-key', key], {}],
      [[], { CONTRACT_API_KEY: key }],
    ] as const) {
      const { io, out, err } = fakeIo(env);
      expect(await run(['--base-url', served.url, ...argv, '--har', har], io)).toBe(2);
      expect(err()).toContain(`petkit contract: ${says}`);
      expect(err()).toMatch(/RFC 9110|at most 8192/);
      expect(out() + err() + readFileSync(har, 'utf8')).not.toMatch(/sekr/i);
    }
    expect(requests).toBe(0);
  },
);

test('a key of other visible characters (quotes, $, `, \\, |, !, %) travels as it is, and is in no output', async () => {
  const key = `Sk'"$HOME\`id\`\\x|y!z%41=`;
  const served = scratch.serve(await serve(createReference({ key })));
  const dir = scratch.dir();
  const har = join(dir, 'run.har');
  const { io, out, err } = fakeIo();
  const exit = await run(
    ['--base-url', served.url, '--api-key', key, '--seed', '7', '--examples', '2', '--har', har],
    io,
  );
  expect(err()).not.toMatch(/answered 401/);
  expect(exit).toBe(0);
  expect(out()).toMatch(/verdict: ✓ conformant/);
  for (const output of [out(), err(), readFileSync(har, 'utf8')]) {
    expect(output).not.toContain(key);
    expect(output).not.toContain(swapCase(key));
    expect(output).not.toContain(JSON.stringify(key).slice(1, -1));
  }
});

test('a key the target echoes back lower-, upper- or swapped-case, percent-encoded, JSON-escaped, in base64 or in part is in no output', async () => {
  const key = 'sk-Live_9f8E/7d6C+5b4A=';
  const reference = createReference({ key });
  const echoes = {
    'x-echo-lower': `bearer ${key.toLowerCase()}`,
    'x-echo-upper': `BEARER ${key.toUpperCase()}`,
    'x-echo-swapped': swapCase(key),
    'x-echo-url': `https://example.com/?token=${encodeURIComponent(key)}`,
    'x-echo-url-lower': encodeURIComponent(key).toLowerCase(),
    'x-echo-base64': Buffer.from(`Bearer ${key}`).toString('base64'),
    'x-echo-base64url': Buffer.from(`:${key}`).toString('base64url'),
    'x-echo-head': `${key.slice(0, 14)}...`,
    'x-echo-tail': `...${key.slice(-13)}`,
  };
  const served = scratch.serve(
    await serve((request: RawRequest) => {
      const response = reference(request);
      Object.assign(response.headers, echoes);
      if (response.status === 401) {
        // JSON with the key escaped as a JSON encoder may: \/ and \u0073 for its first letter.
        const escaped = `\\u0073${key.slice(1).replaceAll('/', '\\/')}`;
        response.body = `{"code":"invalid_api_key","message":"not ${escaped} nor ${key.toUpperCase()}","status":401}`;
      }
      return response;
    }),
  );
  const dir = scratch.dir();
  const file = join(dir, 'report.json');
  const har = join(dir, 'run.har');
  const { io, out, err } = fakeIo({ CONTRACT_API_KEY: key });
  const exit = await run(
    [
      '--base-url',
      served.url,
      '--seed',
      '7',
      '--examples',
      '2',
      '--reporter',
      'json',
      '--output',
      file,
      '--har',
      har,
    ],
    io,
  );
  expect(exit).toBe(0);
  const report = readFileSync(file, 'utf8');
  const recorded = readFileSync(har, 'utf8');
  // The redaction is there to see: the HAR shows where the echoes were.
  expect(recorded).toContain('"x-echo-upper"');
  expect(recorded).toContain('[API_KEY, upper-cased]');
  const half = Math.ceil(key.length / 2);
  const windows = Array.from({ length: key.length - half + 1 }, (_, i) =>
    key.slice(i, i + half).toLowerCase(),
  );
  for (const output of [out(), err(), report, recorded, ...strings(report), ...strings(recorded)]) {
    const lower = output.toLowerCase();
    expect(windows.filter((window) => lower.includes(window))).toEqual([]);
    expect(lower).not.toContain(encodeURIComponent(key).toLowerCase());
    expect(output).not.toContain(Buffer.from(key).toString('base64').slice(0, 24));
    expect(output).not.toContain(echoes['x-echo-base64'].slice(12, 30));
    expect(output).not.toContain(echoes['x-echo-base64url'].slice(4, 30));
  }
  const parsed = JSON.parse(report) as Report;
  expect(parsed.verdict).toBe('conformant');
});

test('a key the target echoes back in hex, lower- or upper-case digits, is in no output: the HAR shows [API_KEY, hex]', async () => {
  const key = 'secret-key-12345';
  const hex = Buffer.from(key).toString('hex');
  expect(hex).toBe('7365637265742d6b65792d3132333435');
  const reference = createReference({ key });
  const echoes = {
    'x-echo-hex': hex,
    'x-echo-hex-upper': hex.toUpperCase(),
    'x-echo-hex-bearer': Buffer.from(`Bearer ${key}`).toString('hex'),
    'x-echo-hex-upper-cased': Buffer.from(key.toUpperCase()).toString('hex'),
  };
  const served = scratch.serve(
    await serve((request: RawRequest) => {
      const response = reference(request);
      Object.assign(response.headers, echoes);
      return response;
    }),
  );
  const dir = scratch.dir();
  const file = join(dir, 'report.json');
  const har = join(dir, 'run.har');
  const { io, out, err } = fakeIo({ CONTRACT_API_KEY: key });
  const args = ['--base-url', served.url, '--seed', '7', '--examples', '2', '--reporter', 'json'];
  const exit = await run([...args, '--output', file, '--har', har], io);
  expect(exit).toBe(0);
  const report = readFileSync(file, 'utf8');
  const recorded = readFileSync(har, 'utf8');
  expect(recorded).toContain('"x-echo-hex"');
  expect(recorded).toContain('[API_KEY, hex]');
  for (const output of [out(), err(), report, recorded]) {
    const lower = output.toLowerCase();
    for (const echo of Object.values(echoes)) expect(lower).not.toContain(echo.toLowerCase().slice(-32));
  }
});

test('a stray argument (a key given without --api-key) is not printed', async () => {
  const { io, out, err } = fakeIo();
  expect(await run(['--base-url', 'http://127.0.0.1:9/v1', 'sk-live-0123456789abcdef'], io)).toBe(2);
  expect(err()).toMatch(/unexpected argument at position 3/);
  expect(out() + err()).not.toContain('0123456789');
});

test('--base-url and --api-key swapped: says so, and prints neither', async () => {
  const { io, out, err } = fakeIo();
  expect(
    await run(['--base-url', 'sk-live-0123456789abcdef', '--api-key', 'http://127.0.0.1:9/v1'], io),
  ).toBe(2);
  expect(err()).toMatch(/--base-url and --api-key look swapped/);
  expect(out() + err()).not.toContain('0123456789');
});
