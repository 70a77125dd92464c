// Each message a user meets, held word for word: the mock's Error bodies over HTTP (a real socket,
// a fixed clock), and `petkit mock`'s flag and file errors through the built CLI. Each names what
// was received and what is allowed, and none quotes a key.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { HELP } from '../cli/mock.js';
import { type RunningServer, startServer } from '../mocks/index.js';

// 30 s into a minute: every Retry-After below is 30.
const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
const SECRET = 'k-top-secret';
const KEYS = [
  { key: SECRET, plan: 'enterprise' as const, perMinute: 1, perDay: 1000 },
  { key: 'k-roomy', plan: 'enterprise' as const, perMinute: 1000, perDay: 100_000 },
];
let server: RunningServer;
/** A second mock whose requests without a valid key are limited to 1 a minute. */
let strict: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, clock: () => NOW, keys: { keys: KEYS } });
  strict = await startServer({
    port: 0,
    clock: () => NOW,
    keys: { keys: KEYS, anonymous: { perMinute: 1, perDay: 1000 } },
  });
});
afterAll(async () => {
  await server.close();
  await strict.close();
});

const ROOMY = { authorization: 'Bearer k-roomy' };
const JSON_BODY = { ...ROOMY, 'content-type': 'application/json' };

interface HttpRow {
  readonly name: string;
  readonly path: string;
  readonly init?: RequestInit;
  /** Sent first, once, to use up a bucket. */
  readonly before?: RequestInit;
  /** Sent to the mock whose keyless limit is 1 a minute. */
  readonly strict?: true;
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

const HTTP_ROWS: readonly HttpRow[] = [
  {
    name: 'an enum in the query lists the allowed values and what came',
    path: '/pets?status=adopted',
    init: { headers: ROOMY },
    status: 400,
    code: 'validation_failed',
    message: 'Invalid query: /status must be one of "available", "pending", "sold"; got "adopted".',
  },
  {
    name: 'a limit out of range says what came',
    path: '/pets?limit=1000',
    init: { headers: ROOMY },
    status: 400,
    code: 'validation_failed',
    message: 'Invalid query: /limit must be <= 100; got 1000.',
  },
  {
    name: 'an enum in the body lists the allowed values and what came',
    path: '/pets',
    init: { method: 'POST', headers: JSON_BODY, body: '{"name":"Rex","categoryId":1,"status":"gone"}' },
    status: 400,
    code: 'validation_failed',
    message: 'Invalid body: /status must be one of "available", "pending", "sold"; got "gone".',
  },
  {
    name: 'the largest int64 is a valid int64, refused for the mock’s store, not called off its format',
    path: '/pets',
    init: { method: 'POST', headers: JSON_BODY, body: '{"name":"Rex","categoryId":9223372036854775807}' },
    status: 400,
    code: 'validation_failed',
    message:
      'Invalid body: /categoryId 9223372036854775807 is beyond 2^53-1, the largest integer this mock stores exactly.',
  },
  {
    name: 'a number past int64 is quoted with its digits, not rounded (it said got 100000000000000000000)',
    path: '/pets',
    init: { method: 'POST', headers: JSON_BODY, body: '{"name":"Rex","categoryId":99999999999999999999}' },
    status: 400,
    code: 'validation_failed',
    message: 'Invalid body: /categoryId must match format "int64"; got 99999999999999999999.',
  },
  {
    name: 'a number past a double’s range is quoted as sent (it said got null)',
    path: '/pets',
    init: { method: 'POST', headers: JSON_BODY, body: '{"name":"Rex","categoryId":1e400}' },
    status: 400,
    code: 'validation_failed',
    message: 'Invalid body: /categoryId must be integer; got 1e400.',
  },
  {
    name: 'a negative number past 2^53 is quoted with its digits',
    path: '/pets',
    init: { method: 'POST', headers: JSON_BODY, body: '{"name":"Rex","categoryId":-9007199254740993}' },
    status: 400,
    code: 'validation_failed',
    message: 'Invalid body: /categoryId must be >= 1; got -9007199254740993.',
  },
  {
    name: 'a query number past a double’s exact range is quoted as sent (it said got 1e+23)',
    path: '/pets?limit=99999999999999999999999',
    init: { headers: ROOMY },
    status: 400,
    code: 'validation_failed',
    message: 'Invalid query: /limit must be <= 100; got 99999999999999999999999.',
  },
  {
    name: 'an over-large categoryId is quoted with the digits sent, not rounded',
    path: '/pets',
    init: { method: 'POST', headers: JSON_BODY, body: '{"name":"Rex","categoryId":9007199254740993}' },
    status: 400,
    code: 'validation_failed',
    message:
      'Invalid body: /categoryId 9007199254740993 is beyond 2^53-1, the largest integer this mock stores exactly.',
  },
  {
    name: 'the 415 names the content type received',
    path: '/pets',
    init: { method: 'POST', headers: { ...ROOMY, 'content-type': 'text/plain' }, body: 'Rex' },
    status: 415,
    code: 'unsupported_media_type',
    message: 'The body must be application/json; this request sent Content-Type "text/plain".',
  },
  {
    // A gzip body was read as bytes (400: not valid UTF-8); a plain one labelled br was stored (201).
    name: 'a body in a content coding is a 415 naming it',
    path: '/pets',
    init: {
      method: 'POST',
      headers: { ...JSON_BODY, 'content-encoding': 'br' },
      body: '{"name":"Rex","categoryId":1}',
    },
    status: 415,
    code: 'unsupported_media_type',
    message:
      'The body must be sent as it is; this request sent Content-Encoding "br", which the mock does not decode.',
  },
  {
    name: 'a key sent with no scheme is told Bearer is expected, and the key is not echoed',
    path: '/pets',
    init: { headers: { authorization: 'k-roomy' } },
    status: 401,
    code: 'missing_api_key',
    message:
      'An API key is required, sent as "Authorization: Bearer <API_KEY>"; this request sent an Authorization header with no scheme (a bare value).',
  },
  {
    name: 'another scheme is named, its credentials not',
    path: '/pets',
    init: { headers: { authorization: 'Basic ay1yb29teTo=' } },
    status: 401,
    code: 'missing_api_key',
    message:
      'An API key is required, sent as "Authorization: Bearer <API_KEY>"; this request sent the Basic scheme.',
  },
  {
    name: 'Bearer with no key says so',
    path: '/pets',
    init: { headers: { authorization: 'Bearer ' } },
    status: 401,
    code: 'missing_api_key',
    message:
      'An API key is required, sent as "Authorization: Bearer <API_KEY>"; this request sent the Bearer scheme with no key after it.',
  },
  {
    name: 'a keyless caller over its address limit is told no valid key was sent (singular limit)',
    path: '/pets',
    before: { headers: { authorization: 'Bearer wrong' } },
    init: {},
    strict: true,
    status: 429,
    code: 'rate_limited',
    message:
      'No valid API key was sent, and requests without one are limited per address: 1 request per minute from this address. Send "Authorization: Bearer <key>", or retry in 30 s.',
  },
  {
    name: 'a key over its limit, in the singular',
    path: '/pets?limit=1',
    before: { headers: { authorization: `Bearer ${SECRET}` } },
    init: { headers: { authorization: `Bearer ${SECRET}` } },
    status: 429,
    code: 'rate_limited',
    message: 'Rate limit of 1 request per minute exceeded. Retry in 30 s.',
  },
];

describe('the mock’s messages, over HTTP', () => {
  it.each(HTTP_ROWS)('$name', async (row) => {
    const url = `${(row.strict ? strict : server).url}${row.path}`;
    if (row.before !== undefined) expect((await fetch(url, row.before)).status).not.toBe(429);
    const res = await fetch(url, row.init);
    const text = await res.text();
    expect(res.status).toBe(row.status);
    expect(JSON.parse(text)).toMatchObject({ code: row.code, message: row.message, status: row.status });
    expect(text).not.toContain('k-roomy');
    expect(text).not.toContain(SECRET);
  });
});

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'petkit-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A named pipe with no writer: opening it to read waits for one. */
const fifo = (name: string): string => {
  const path = join(dir, name);
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path}: ${made.stderr}`);
  return path;
};
/** A sparse file of `bytes` (made at once, whatever its size). */
const sized = (name: string, bytes: number): string => {
  const path = file(name, '');
  truncateSync(path, bytes);
  return path;
};
const folder = (name: string): string => {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
};

/** Arrays nested 20,000 deep: a parser that recurses per level overflows the stack on it. */
const DEEP = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;

/** Each row: the arguments, and the one line `petkit mock` prints before exiting 2. */
const CLI_ROWS: readonly (readonly [string, () => string[], string])[] = [
  ['a negative number', () => ['--pets', '-1'], '--pets must be an integer of 0 or more, got "-1".'],
  [
    'a port out of range',
    () => ['--port', '70000'],
    '--port must be an integer from 0 to 65535, got "70000".',
  ],
  [
    'a journal limit out of range',
    () => ['--journal-limit', '200000'],
    '--journal-limit must be an integer from 0 to 100000, got "200000".',
  ],
  ['a flag without its value', () => ['--pets'], '--pets needs a value.'],
  [
    'a flag followed by another',
    () => ['--keys', '--port', '0'],
    '--keys needs a value, got the option --port.',
  ],
  ['a mistyped flag, with the nearest', () => ['--prot', '0'], 'unknown option --prot. Did you mean --port?'],
  ['a boolean given a value', () => ['--help=yes'], '--help takes no value.'],
  ['a stray argument', () => ['4010'], 'unexpected argument "4010"; every option is a --flag.'],
  [
    'conflicting flags',
    () => ['--fixtures', 'pets.json', '--seed', '7'],
    '--fixtures gives the pets, so --seed has nothing to do; use one or the other.',
  ],
  [
    'a keys file with a name twice in one object (two files pasted together), by both places',
    () => [
      '--keys',
      file(
        'twice.json',
        '{"keys": [{"key": "k1", "plan": "free"}],\n"keys": [{"key": "k2", "plan": "pro"}]}\n',
      ),
    ],
    `Keys file ${join(dir, 'twice.json')}: has a name twice in one object, at line 1, column 2 and line 2, column 1: JSON would keep the last; give it once.`,
  ],
  [
    'a keys file with a trailing comma, by line and column, its keys unquoted',
    () => [
      '--keys',
      file('keys.json', `{\n  "keys": [\n    { "key": "${SECRET}", "plan": "free" },\n  ]\n}\n`),
    ],
    `Keys file ${join(dir, 'keys.json')}: is not valid JSON at line 4, column 3: a trailing comma before ].`,
  ],
  [
    'a fixtures file that is not JSON',
    () => ['--fixtures', file('bad.json', "[{'name': 'Rex'}]")],
    `Fixtures file ${join(dir, 'bad.json')}: is not valid JSON at line 1, column 3: a single quote (JSON takes double quotes).`,
  ],
  [
    'a fixtures file with a bad entry, named by its index',
    () => ['--fixtures', file('pets.json', '[{"name":"Rex","categoryId":1},{"categoryId":2}]')],
    `Fixtures file ${join(dir, 'pets.json')}: pets[1]: /name is required.`,
  ],
  [
    'a keys file nested 20,000 deep, by its first fault',
    () => ['--keys', file('deep-keys.json', `{"keys": ${DEEP}}`)],
    `Keys file ${join(dir, 'deep-keys.json')}: keys[0] must be an object.`,
  ],
  [
    'a keys file nested 20,000 deep and not closed, by line and column',
    () => ['--keys', file('deep-open-keys.json', `{"keys": ${DEEP.slice(0, -1)}}`)],
    `Keys file ${join(dir, 'deep-open-keys.json')}: is not valid JSON at line 1, column 40009: a closing ] was expected.`,
  ],
  [
    'a fixtures file nested 20,000 deep in a field, quoting 60 characters of it',
    () => ['--fixtures', file('deep-pets.json', `[{"name": ${DEEP}, "categoryId": 1}]`)],
    `Fixtures file ${join(dir, 'deep-pets.json')}: pets[0]: /name must be string; got ${'['.repeat(57)}....`,
  ],
  [
    'a fixtures file nested 20,000 deep and not closed, by line and column',
    () => ['--fixtures', file('deep-open-pets.json', DEEP.slice(0, -1))],
    `Fixtures file ${join(dir, 'deep-open-pets.json')}: is not valid JSON at line 1, column 40000: a closing ] was expected.`,
  ],
  [
    'a fixtures file that is missing',
    () => ['--fixtures', join(dir, 'nope.json')],
    `Fixtures file ${join(dir, 'nope.json')}: no such file.`,
  ],
  [
    'a keys file giving a key twice, by the entries, the key unquoted',
    () => [
      '--keys',
      file(
        'twice.json',
        JSON.stringify({
          keys: [
            { key: SECRET, plan: 'free' },
            { key: 'k-roomy', plan: 'pro' },
            { key: SECRET, plan: 'pro' },
          ],
        }),
      ),
    ],
    `Keys file ${join(dir, 'twice.json')}: keys[2] repeats the key of keys[0].`,
  ],
  [
    'a keys file that is an endless device, not read',
    () => ['--keys', '/dev/zero'],
    'Keys file /dev/zero: is a character device, not a regular file.',
  ],
  [
    'a keys file that is a FIFO with no writer, without waiting for one',
    () => ['--keys', fifo('keys.fifo')],
    `Keys file ${join(dir, 'keys.fifo')}: is a named pipe (FIFO), not a regular file.`,
  ],
  [
    'a fixtures file that is a FIFO with no writer, without waiting for one',
    () => ['--fixtures', fifo('pets.fifo')],
    `Fixtures file ${join(dir, 'pets.fifo')}: is a named pipe (FIFO), not a regular file.`,
  ],
  [
    'a keys file that is a folder',
    () => ['--keys', folder('keys.d')],
    `Keys file ${join(dir, 'keys.d')}: is a folder, not a regular file.`,
  ],
  [
    'a fixtures file of 1 GiB, not read',
    () => ['--fixtures', sized('huge.json', 2 ** 30)],
    `Fixtures file ${join(dir, 'huge.json')}: is 1 GiB; a fixtures file may be at most 16 MiB.`,
  ],
  [
    'a keys file one byte over its bound, in bytes',
    () => ['--keys', sized('big-keys.json', 2 ** 20 + 1)],
    `Keys file ${join(dir, 'big-keys.json')}: is 1048577 bytes; a keys file may be at most 1 MiB.`,
  ],
  [
    'a --har in a folder that does not exist, at start',
    () => ['--har', join(dir, 'missing', 'run.har')],
    `--har ${join(dir, 'missing', 'run.har')}: the folder ${join(dir, 'missing')} does not exist.`,
  ],
  [
    'a --har under a file (no permission stops root: this does), at start',
    () => ['--har', join(file('plain.txt', 'x'), 'run.har')],
    `--har ${join(dir, 'plain.txt', 'run.har')}: ${join(dir, 'plain.txt')} is not a folder.`,
  ],
  [
    'a --har that is a folder, at start',
    () => ['--har', folder('har.d')],
    `--har ${join(dir, 'har.d')}: is a folder; give the path of a file to write.`,
  ],
  [
    'a --har that is a device, which the rename at stop would replace',
    () => ['--har', '/dev/null'],
    '--har /dev/null: is a character device; give the path of a file to write.',
  ],
];

describe('petkit mock’s messages, through the CLI', () => {
  it.each(CLI_ROWS)('%s', (_, args, line) => {
    // Killed if it has not exited by then: a file read without bound, or a FIFO waited on, would be.
    // On port 0 unless the row gives its own (a flag given twice is refused: that is a row of its own).
    const given = args();
    const port = given.includes('--port') ? [] : ['--port', '0'];
    const run = spawnSync(process.execPath, [MAIN, 'mock', ...port, ...given], {
      encoding: 'utf8',
      timeout: 5_000,
    });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`petkit mock: ${line}\nRun 'petkit mock --help' for the options.\n`);
    expect(run.stderr).not.toContain(SECRET);
  });

  it('starts from a fixtures file, and says so', async () => {
    const path = file(
      'ok.json',
      '[{"id":1,"name":"Rex","categoryId":1},{"name":"Tom","categoryId":2,"status":"sold"}]',
    );
    const child = spawn(process.execPath, [MAIN, 'mock', '--port', '0', '--fixtures', path], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (data: Buffer) => {
        out += data.toString();
        const found = /serving the Pet Adoption API at (\S+)\n(.*)\n/.exec(out);
        if (found !== null) resolve(found[1] as string);
      });
      child.on('exit', (code) => reject(new Error(`petkit mock exited ${code}: ${out}`)));
    });
    expect(out).toContain('  2 pets (from --fixtures), store holds up to 100000');
    const res = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-free' } });
    expect(await res.json()).toEqual([
      { id: 1, name: 'Rex', categoryId: 1 },
      { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
    ]);
  });

  it('lists in --help every flag docs/mock.md’s table lists, and no other', () => {
    const docs = readFileSync(new URL('../docs/mock.md', import.meta.url), 'utf8');
    const table = [...docs.matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]);
    const help = [...HELP.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)]
      .map((m) => m[1])
      .filter((f) => f !== '--help');
    expect(new Set(help)).toEqual(new Set(table));
  });
});

describe('keyless callers, over HTTP', () => {
  it('are limited per address but never banned: after a flood, the next window gives a wrong key its 401', async () => {
    const clock = { now: NOW };
    const mock = await startServer({
      port: 0,
      clock: () => clock.now,
      keys: { keys: KEYS, anonymous: { perMinute: 2, perDay: 1000 } },
    });
    onTestFinished(() => mock.close());
    const send = async (authorization?: string) => {
      const res = await fetch(
        `${mock.url}/pets`,
        authorization === undefined ? {} : { headers: { authorization } },
      );
      return { status: res.status, body: (await res.json()) as { code: string } };
    };
    expect((await send()).status).toBe(401);
    expect((await send('Bearer wrong')).status).toBe(401);
    // Twenty more while limited: far past the ban threshold a key would meet.
    for (let i = 0; i < 20; i += 1) {
      expect(await send(i % 2 === 0 ? undefined : 'Bearer wrong')).toMatchObject({
        status: 429,
        body: { code: 'rate_limited' },
      });
    }
    clock.now += 30_000; // the next minute window
    expect(await send('Bearer wrong')).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
    expect(await send()).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });
    expect((await send('Bearer k-roomy')).status).toBe(200);
  });
});
