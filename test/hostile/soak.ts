// `npm run soak`: the built `petkit mock` as a process of its own on 127.0.0.1, under sustained mixed
// traffic for a bounded time: lists, lookups, creates up to --max-pets (then 507s), invalid bodies,
// journal reads, and hostile clients mixed in (oversized headers, junk, pipelined junk, abandoned
// uploads, a slow drip of headers). It prints requests sent, errors, peak and final RSS, and exits 1
// when an answer is not one the traffic allows, the process dies, or memory keeps growing.
//   node dist/test/hostile/soak.js [--seconds 30] [--concurrency 16] [--max-pets 2000]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readMemory } from '../../bench/memory.js';
import { growthVerdict } from './soak-verdict.js';

const KEY = 'soak-key-0123456789';
const MAIN = fileURLToPath(new URL('../../bin/petkit.js', import.meta.url));
const MB = 1024 * 1024;

interface Settings {
  readonly seconds: number;
  readonly concurrency: number;
  readonly maxPets: number;
}

function settingsOf(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      seconds: { type: 'string', default: '30' },
      concurrency: { type: 'string', default: '16' },
      'max-pets': { type: 'string', default: '2000' },
    },
  });
  const whole = (name: string, raw: string, max: number) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw new Error(`--${name} must be an integer from 1 to ${max}, got "${raw}".`);
    return value;
  };
  return {
    seconds: whole('seconds', values.seconds, 3600),
    concurrency: whole('concurrency', values.concurrency, 256),
    maxPets: whole('max-pets', values['max-pets'], 1_000_000),
  };
}

/** What the run counted. */
interface Tally {
  sent: number;
  hostile: number;
  statuses: Map<number, number>;
  /** How many answers the traffic does not allow, and the first few. */
  errorCount: number;
  errors: string[];
}

const count = (tally: Tally, status: number) =>
  tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
const fail = (tally: Tally, message: string) => {
  tally.errorCount += 1;
  if (tally.errors.length < 20) tally.errors.push(message);
};

/** One request of the mix, and the statuses it may get. */
function nextRequest(
  i: number,
  url: string,
  maxPets: number,
): { init: RequestInit; path: string; allowed: number[] } {
  const auth = { authorization: `Bearer ${KEY}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const pick = i % 20;
  if (pick < 8)
    return { path: `${url}/pets?limit=${1 + (i % 100)}`, init: { headers: auth }, allowed: [200] };
  if (pick < 12)
    return { path: `${url}/pets/${1 + (i % (maxPets + 50))}`, init: { headers: auth }, allowed: [200, 404] };
  if (pick < 16)
    return {
      path: `${url}/pets`,
      init: {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: `Soak ${i}`, categoryId: 1 + (i % 8) }),
      },
      allowed: [201, 507],
    };
  if (pick < 17)
    return { path: `${url}/pets`, init: { method: 'POST', headers: json, body: '{"name":' }, allowed: [400] };
  if (pick < 18)
    return { path: `${url}/pets`, init: { headers: { authorization: 'Bearer nope' } }, allowed: [401] };
  if (pick < 19) return { path: `${url}/pets?limit=abc`, init: { headers: auth }, allowed: [400] };
  return { path: `${url}/nowhere/${'x'.repeat(i % 2000)}`, init: { headers: auth }, allowed: [404] };
}

async function client(url: string, until: number, settings: Settings, tally: Tally, offset: number) {
  for (let i = offset; Date.now() < until; i += settings.concurrency) {
    const { path, init, allowed } = nextRequest(i, url, settings.maxPets);
    tally.sent += 1;
    try {
      const res = await fetch(path, init);
      await res.arrayBuffer();
      count(tally, res.status);
      if (!allowed.includes(res.status))
        fail(tally, `${init.method ?? 'GET'} ${path.slice(0, 80)} → ${res.status}`);
    } catch (error) {
      fail(tally, `${init.method ?? 'GET'} ${path.slice(0, 80)} failed: ${String(error)}`);
    }
  }
}

/** Journal reads, a few a second: a page at a time, bounded. */
async function journalReader(origin: string, until: number, tally: Tally) {
  while (Date.now() < until) {
    tally.sent += 1;
    try {
      const res = await fetch(`${origin}/__petkit/requests?limit=1000`);
      const text = await res.text();
      count(tally, res.status);
      if (res.status !== 200) fail(tally, `journal read → ${res.status}`);
      if (text.length > 4 * MB) fail(tally, `a journal page of ${(text.length / MB).toFixed(1)} MB`);
    } catch (error) {
      fail(tally, `journal read failed: ${String(error)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Raw bytes that a broken or hostile client sends; resolves once the server has closed or answered. */
function rawClient(
  origin: string,
  chunks: readonly string[],
  gapMs: number,
  cutMs: number | undefined,
): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const parts = [...chunks];
    const next = () => {
      const part = parts.shift();
      if (part === undefined || socket.destroyed) return;
      socket.write(part);
      timer = setTimeout(next, gapMs);
    };
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
    });
    socket.on('error', () => undefined);
    if (cutMs !== undefined) setTimeout(() => socket.destroy(), cutMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    next();
  });
}

const HOSTILE: readonly {
  name: string;
  chunks: (host: string) => string[];
  gapMs: number;
  /** The client goes away after this long. */
  cutMs?: number;
  expect: RegExp;
}[] = [
  {
    name: 'oversized header',
    chunks: (host) => [`GET /v1/pets HTTP/1.1\r\nhost: ${host}\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`],
    gapMs: 0,
    expect: /^HTTP\/1\.1 431 /,
  },
  { name: 'junk', chunks: () => ['\x00\x01 NOT HTTP\r\n\r\n'], gapMs: 0, expect: /^HTTP\/1\.1 400 / },
  {
    name: 'pipelined junk',
    chunks: (host) => [
      `GET /v1/pets?limit=1 HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${KEY}\r\n\r\nJUNK\r\n\r\n`,
    ],
    gapMs: 0,
    expect: /^HTTP\/1\.1 200 [\s\S]*HTTP\/1\.1 400 /,
  },
  {
    name: 'abandoned upload',
    chunks: (host) => [
      `POST /v1/pets HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${KEY}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"name":`,
    ],
    gapMs: 0,
    cutMs: 200,
    expect: /^$/,
  },
  {
    name: 'header drip',
    chunks: (host) => [
      'GET /v1/pets HTTP/1.1\r\n',
      `host: ${host}\r\n`,
      ...Array.from({ length: 30 }, (_, i) => `x-${i}: 1\r\n`),
    ],
    gapMs: 1_000,
    expect: /^HTTP\/1\.1 408 /,
  },
];

async function hostileClients(origin: string, until: number, tally: Tally) {
  const host = new URL(origin).host;
  const running: Promise<void>[] = [];
  for (let i = 0; Date.now() < until; i += 1) {
    const kind = HOSTILE[i % HOSTILE.length];
    if (kind === undefined) break;
    tally.hostile += 1;
    // The slow ones (a drip, a stalled upload) run beside the rest; each answer is checked when it ends.
    running.push(
      rawClient(origin, kind.chunks(host), kind.gapMs, kind.cutMs).then((answer) => {
        if (!kind.expect.test(answer))
          fail(tally, `${kind.name}: got ${JSON.stringify(answer.slice(0, 60))}`);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await Promise.all(running);
}

async function main(): Promise<number> {
  const settings = settingsOf(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'petkit-soak-'));
  const keys = join(dir, 'keys.json');
  const urlFile = join(dir, 'url');
  writeFileSync(
    keys,
    JSON.stringify({
      keys: [{ key: KEY, plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000 }],
      anonymous: { perMinute: 100_000_000, perDay: 1_000_000_000 },
    }),
  );
  const child = spawn(
    process.execPath,
    [
      MAIN,
      'mock',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--keys',
      keys,
      '--max-pets',
      String(settings.maxPets),
      '--url-file',
      urlFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => {
    stderr = (stderr + data.toString()).slice(-4096);
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  try {
    let url = '';
    for (let waited = 0; url === '' && waited < 20_000 && !exited; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        url = readFileSync(urlFile, 'utf8').trim();
      } catch {
        url = '';
      }
    }
    if (url === '') throw new Error(`the mock did not start: ${stderr}`);
    const origin = new URL(url).origin;
    const pid = child.pid ?? 0;
    const tally: Tally = { sent: 0, hostile: 0, statuses: new Map(), errorCount: 0, errors: [] };
    const samples: number[] = [];
    const started = Date.now();
    const until = started + settings.seconds * 1000;
    const sampler = setInterval(() => {
      void readMemory(pid).then((memory) => {
        if (memory !== undefined) samples.push(memory.rss);
      });
    }, 250);
    await Promise.all([
      ...Array.from({ length: settings.concurrency }, (_, i) => client(url, until, settings, tally, i)),
      journalReader(origin, until, tally),
      hostileClients(origin, until, tally),
    ]);
    clearInterval(sampler);
    const elapsed = (Date.now() - started) / 1000;
    const memory = await readMemory(pid);
    const health = await fetch(`${origin}/__petkit/health`).then(
      (res) => res.json() as Promise<{ pets: number }>,
    );
    const { settled, last, growing } = growthVerdict(samples);
    const growth = last - settled;
    const statuses = [...tally.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    process.stdout.write(
      `petkit soak: ${settings.seconds} s, ${settings.concurrency} clients, --max-pets ${settings.maxPets}, 127.0.0.1\n` +
        `  requests sent   ${tally.sent} (${Math.round(tally.sent / elapsed)}/s), hostile clients ${tally.hostile}\n` +
        `  statuses        ${statuses}\n` +
        `  errors          ${tally.errorCount}${tally.errors.length === 0 ? '' : `\n    ${tally.errors.join('\n    ')}`}\n` +
        `  pets stored     ${health.pets}\n` +
        `  RSS             peak ${mb(memory?.peak)}, final ${mb(memory?.rss)}, second quarter ${mb(settled)}, last quarter ${mb(last)} (${growth >= 0 ? '+' : ''}${mb(growth)})\n`,
    );
    if (exited) process.stdout.write('petkit soak: FAIL, the mock died.\n');
    if (growing) process.stdout.write('petkit soak: FAIL, memory kept growing.\n');
    if (tally.errors.length > 0)
      process.stdout.write('petkit soak: FAIL, answers the traffic does not allow.\n');
    const ok = !exited && !growing && tally.errors.length === 0;
    if (ok) process.stdout.write('petkit soak: ok\n');
    return ok ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / MB).toFixed(1)} MB`);

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`petkit soak: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
