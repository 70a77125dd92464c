// `petkit mock` as a user runs it: the built binary, a real port, real signals.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

function startCli(
  args: string[],
  nodeArgs: readonly string[] = [],
): Promise<{ url: string; output: () => string; exit: Promise<number | null> }> {
  const proc = spawn(process.execPath, [...nodeArgs, MAIN, 'mock', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let out = '';
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    proc.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      const url = /serving the Pet Adoption API at (\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve({ url, output: () => out, exit });
    });
    proc.stderr.on('data', (data: Buffer) => {
      out += data.toString();
    });
    proc.on('exit', (code) => reject(new Error(`petkit mock exited ${code}: ${out}`)));
  });
}

/** Whether a new connection to 127.0.0.1:`port` is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A GET of pet 1 answered after `delayMs`, once the mock counts it in flight; its answer to come. */
async function inFlight(url: string, delayMs: number): Promise<{ answer: Promise<Response> }> {
  const answer = fetch(`${url}/pets/1`, {
    headers: { authorization: 'Bearer demo-free', prefer: `delay=${delayMs}` },
  });
  const health = `${new URL(url).origin}/__petkit/health`;
  while (((await (await fetch(health)).json()) as { inFlight: number }).inFlight === 0) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return { answer };
}

/** A folder of its own for a test, removed when it ends. */
function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('petkit mock', () => {
  it('serves the API, prints the demo keys, logs each request, and exits 0 on SIGTERM after in-flight requests', async () => {
    const { url, output, exit } = await startCli([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(output()).toContain('demo-free');
    expect(output()).toContain('demo-enterprise');
    expect(output()).toMatch(/\(no key\) +per address 60\/min {2}1000\/day/);
    const res = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveLength(20);

    const { answer: slow } = await inFlight(url, 400);
    child?.kill('SIGTERM');
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(await exit).toBe(0);
    expect(output()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/v1\/pets 200 \d+ms$/m);
    expect(output()).toMatch(/GET \/v1\/pets\/1 200 \d+ms/);
  });
  it('prints the URL with the port it picked on its first line, for a script to wait for', async () => {
    const { url, output } = await startCli([]);
    const first = output().split('\n')[0];
    expect(first).toBe(`petkit mock: serving the Pet Adoption API at ${url}`);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
  });
  it('prints a URL to open, not http://0.0.0.0, and says it listens on every interface, with --host 0.0.0.0', async () => {
    const dir = folder('petkit-any-');
    const file = join(dir, 'mock-url');
    const { url, output } = await startCli(['--host', '0.0.0.0', '--url-file', file]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const { port } = new URL(url);
    const [first, second] = output().split('\n');
    expect(first).toBe(`petkit mock: serving the Pet Adoption API at ${url}`);
    expect(second).toMatch(
      new RegExp(
        `^  listening on every interface \\(--host 0\\.0\\.0\\.0\\): from another machine, http://(\\S+):${port}/v1`,
      ),
    );
    expect(output()).not.toContain('0.0.0.0:');
    expect(readFileSync(file, 'utf8')).toBe(`${url}\n`);
    expect(
      (await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } })).status,
    ).toBe(200);
  });
  it('writes the base URL to --url-file once listening, and removes the file when it stops', async () => {
    const dir = folder('petkit-url-');
    const file = join(dir, 'mock-url');
    const { url, exit } = await startCli(['--url-file', file]);
    expect(readFileSync(file, 'utf8')).toBe(`${url}\n`);
    const res = await fetch(`${readFileSync(file, 'utf8').trim()}/pets?limit=1`, {
      headers: { authorization: 'Bearer demo-free' },
    });
    expect(res.status).toBe(200);
    child?.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
  it('removes --url-file as it starts to stop, before its port refuses, while an answer is still in flight', async () => {
    const dir = folder('petkit-url-');
    const file = join(dir, 'mock-url');
    const { url, exit } = await startCli(['--url-file', file]);
    const { answer: slow } = await inFlight(url, 1500);
    child?.kill('SIGTERM');
    // A new connection each time: the first one refused, the file is already gone.
    const port = Number(new URL(url).port);
    while (await accepts(port)) await new Promise((r) => setTimeout(r, 5));
    expect(existsSync(file)).toBe(false);
    expect((await slow).status).toBe(200);
    expect(await exit).toBe(0);
  });
  it('stops all the same, exit 1 and a message, when --url-file cannot be removed (a directory now)', async () => {
    const dir = folder('petkit-url-');
    const file = join(dir, 'mock-url');
    const { url, output, exit } = await startCli(['--url-file', file]);
    rmSync(file);
    mkdirSync(file);
    writeFileSync(join(file, 'inside'), 'x');
    child?.kill('SIGTERM');
    expect(await exit).toBe(1);
    expect(output()).toMatch(new RegExp(`cannot remove --url-file ${file.replaceAll('/', '\\/')}: `));
    expect(await accepts(Number(new URL(url).port))).toBe(false);
  });
  it('serves on when the reader of its stdout goes (petkit mock | head -1), saying so once on stderr', async () => {
    const dir = folder('petkit-pipe-');
    const file = join(dir, 'mock-url');
    const { url, output, exit } = await startCli(['--url-file', file]);
    // head -1 has read its line and exits: the pipe's read end is closed, and the next log line fails.
    child?.stdout?.destroy();
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
      expect(res.status).toBe(200);
    }
    while (!output().includes('stdout was closed')) await new Promise((r) => setTimeout(r, 10));
    child?.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(output()).not.toContain('    at ');
    expect(output().match(/stdout was closed/g)).toHaveLength(1);
    expect(output()).toContain(
      'petkit mock: stdout was closed (EPIPE): the banner and the request log are no longer written; still serving.',
    );
    expect(existsSync(file)).toBe(false);
  });
  it('stops cleanly on SIGHUP, its terminal closed: --url-file removed, --har written, exit 0', async () => {
    const dir = folder('petkit-hup-');
    const file = join(dir, 'mock-url');
    const har = join(dir, 'mock.har');
    const { url, output, exit } = await startCli(['--url-file', file, '--har', har]);
    await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
    child?.kill('SIGHUP');
    expect(await exit).toBe(0);
    expect(output()).toContain('petkit mock: SIGHUP, finishing 0 in-flight request(s) and stopping.');
    expect(existsSync(file)).toBe(false);
    expect(JSON.parse(readFileSync(har, 'utf8')).log.entries).toHaveLength(1);
  });
  it('stops at once on a second signal while in-flight requests are waited for, its HAR written (exit 1)', async () => {
    const dir = folder('petkit-twice-');
    const har = join(dir, 'mock.har');
    const file = join(dir, 'mock-url');
    const { url, output, exit } = await startCli(['--har', har, '--url-file', file]);
    await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
    const { answer: slow } = await inFlight(url, 10_000);
    const cut = slow.then(
      () => 'answered',
      () => 'cut',
    );
    child?.kill('SIGINT');
    while (!output().includes('finishing 1 in-flight')) await new Promise((r) => setTimeout(r, 10));
    child?.kill('SIGINT');
    expect(await exit).toBe(1);
    expect(await cut).toBe('cut');
    expect(output()).toContain('petkit mock: SIGINT again, stopping now: 1 in-flight request(s) cut.');
    expect(output()).toContain(`petkit mock: wrote 1 exchange(s) to ${har}.`);
    expect(JSON.parse(readFileSync(har, 'utf8')).log.entries).toHaveLength(1);
    expect(existsSync(file)).toBe(false);
  });
  it('hears a signal from the moment its URL file or banner says it is ready', async () => {
    // A script may send SIGTERM as soon as it reads either: the mock must stop cleanly then, not die.
    // The hook says, as each is written, whether a SIGTERM listener is there yet.
    const dir = folder('petkit-ready-');
    const hook = join(dir, 'hook.cjs');
    writeFileSync(
      hook,
      `const fs = require('node:fs');
const renameSync = fs.renameSync;
fs.renameSync = (...args) => { process.stderr.write('[url file: ' + process.listenerCount('SIGTERM') + ']\\n'); return renameSync(...args); };
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('serving the Pet Adoption API')) process.stderr.write('[banner: ' + process.listenerCount('SIGTERM') + ']\\n');
  return write(chunk, ...rest);
};
`,
    );
    const proc = spawn(
      process.execPath,
      ['--require', hook, MAIN, 'mock', '--port', '0', '--url-file', join(dir, 'url')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = proc;
    let out = '';
    proc.stdout.on('data', (data: Buffer) => {
      out += data.toString();
    });
    proc.stderr.on('data', (data: Buffer) => {
      out += data.toString();
      if (out.includes('[banner: ')) proc.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    expect(out).toMatch(/\[url file: [1-9]\]/);
    expect(out).toMatch(/\[banner: [1-9]\]/);
    expect(out).toContain('petkit mock: SIGTERM, finishing 0 in-flight request(s) and stopping.');
    expect(code).toBe(0);
  });
  it('stops with exit 2 when --url-file cannot be written, before it serves, saying why', () => {
    const result = spawnSync(
      process.execPath,
      [MAIN, 'mock', '--port', '0', '--url-file', '/nonexistent/dir/url'],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^petkit mock: --url-file \/nonexistent\/dir\/url: the folder \/nonexistent\/dir does not exist\.\n/,
    );
  });
  it('loads no faker when its default seed is covered by the pets drawn when generating; another seed loads it', async () => {
    // A preload that says on stderr which packages of faker's are required, as the command requires them.
    const hook = join(folder('petkit-faker-'), 'hook.cjs');
    writeFileSync(
      hook,
      "const Module = require('node:module');\nconst load = Module._load;\n" +
        'Module._load = function (request, ...rest) {\n' +
        "  if (request.startsWith('@faker-js/')) process.stderr.write('required ' + request + '\\n');\n" +
        '  return load.call(this, request, ...rest);\n};\n',
    );
    const names = async (url: string) =>
      (
        (await (
          await fetch(`${url}/pets?limit=3`, { headers: { authorization: 'Bearer demo-pro' } })
        ).json()) as {
          name: string;
        }[]
      ).map((pet) => pet.name);
    const byDefault = await startCli([], ['--require', hook]);
    expect(await names(byDefault.url)).toEqual(['Ginger', 'Louie', 'Bailey']);
    child?.kill('SIGTERM');
    await byDefault.exit;
    expect(byDefault.output()).not.toContain('required @faker-js/');
    const seeded = await startCli(['--seed', '7'], ['--require', hook]);
    expect(await names(seeded.url)).toEqual(['Bandit', 'Milo', 'Joey']);
    expect(seeded.output()).toContain('required @faker-js/faker/locale/base\n');
  });
  it('uses the given seed and number of pets', async () => {
    const { url } = await startCli(['--seed', '7', '--pets', '3']);
    const pets = (await (
      await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-pro' } })
    ).json()) as unknown[];
    expect(pets).toHaveLength(3);
  });
  it.each([
    [['--port', 'abc'], /--port must be an integer/],
    [['--latency', '5-1'], /minimum is above the maximum/],
    [['--latency', '1-99999999999'], /^petkit mock: --latency 1-99999999999: at most 60000 ms\.\n/],
    [['--latency', '60001'], /^petkit mock: --latency 60001: at most 60000 ms\.\n/],
    [
      ['--control-origin', 'javascript:alert(1)'],
      /Control origin "javascript:alert\(1\)" is not a web origin: give scheme:\/\/host\[:port\] of http or https/,
    ],
    [
      // An address of no interface here (TEST-NET-1): refused at once, no name looked up.
      ['--host', '192.0.2.1'],
      /^petkit mock: --host 192\.0\.2\.1: not an address of this machine \(EADDRNOTAVAIL\)/,
    ],
    [['--bogus'], /unknown option --bogus\./],
    // Past the store's size: it said "Option pets must be an integer from 0 to 100000".
    [
      ['--pets', '1000000000'],
      /^petkit mock: --pets must be at most the store's size, 100000 \(--max-pets\), got "1000000000"\.\n/,
    ],
    [
      ['--pets', '11', '--max-pets', '10'],
      /^petkit mock: --pets must be at most the store's size, 10 \(--max-pets\), got "11"\.\n/,
    ],
    // An empty name: the HAR was lost at the end (rename to ''), exit 1 with a stack-like line.
    [
      ['--har', ''],
      /^petkit mock: --har '': an empty path names no file; give the path of a file to write\.\n/,
    ],
    [['--url-file', ''], /^petkit mock: --url-file '': an empty path names no file/],
    [['--keys', '/nonexistent/keys.json'], /\/nonexistent\/keys\.json: no such file/],
    // Where no permission stops root, a place that takes no file at all.
    [
      ['--har', '/proc/petkit.har'],
      /--har \/proc\/petkit\.har: cannot create a file in \/proc \(E[A-Z]+\)\./,
    ],
    [
      ['--keys', 'team.json', '--keys', 'mine.json'],
      /^petkit mock: --keys is given twice \("team\.json", then "mine\.json"\); give it once\.\n/,
    ],
  ])('refuses %j with a clear message and exit 2, before it serves', (args, message) => {
    const result = spawnSync(process.execPath, [MAIN, 'mock', '--port', '0', ...args], {
      encoding: 'utf8',
      timeout: 5_000,
    });
    expect(result.signal).toBeNull();
    expect(result.status).toBe(2);
    expect(result.stdout).not.toContain('serving');
    expect(result.stderr).toMatch(message);
  });
  it('says in words that a --har or --url-file path is a loop of symbolic links (exit 2)', () => {
    const dir = folder('petkit-loop-');
    symlinkSync(join(dir, 'b'), join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    for (const flag of ['--har', '--url-file']) {
      const result = spawnSync(process.execPath, [MAIN, 'mock', '--port', '0', flag, join(dir, 'a')], {
        encoding: 'utf8',
        timeout: 5_000,
      });
      expect(result.status).toBe(2);
      // It said "cannot be reached (ELOOP)".
      expect(result.stderr).toContain(
        `${flag} ${join(dir, 'a')}: is a symbolic link that never reaches a file (a loop of links, or more than 40 in a row); point the link at the file itself, or give another path (ELOOP).`,
      );
    }
  });
  it('prints a --har path that holds a control character escaped, as it starts and as it writes the HAR', async () => {
    const har = join(folder('petkit-har-'), 'a\u001b[2J.har');
    const { output, exit } = await startCli(['--har', har]);
    child?.kill('SIGTERM');
    expect(await exit).toBe(0);
    // It wrote the ESC to the terminal: "wrote 0 exchange(s) to …/a^[[2J.har".
    expect(output()).not.toContain('\u001b');
    expect(output()).toContain('a\\u001b[2J.har when the mock stops');
    expect(output()).toContain('wrote 0 exchange(s) to ');
    expect(existsSync(har)).toBe(true);
  });
  it('names --fixtures and --max-pets when the file gives more pets than the store holds (exit 2)', () => {
    const file = join(folder('petkit-fixtures-'), 'pets.json');
    writeFileSync(file, JSON.stringify([1, 2, 3].map((i) => ({ name: `Pet ${i}`, categoryId: 1 }))));
    const result = spawnSync(
      process.execPath,
      [MAIN, 'mock', '--port', '0', '--fixtures', file, '--max-pets', '2'],
      {
        encoding: 'utf8',
        timeout: 5_000,
      },
    );
    expect(result.status).toBe(2);
    // It said "Option pets gives 3 pets; the store holds 2 (maxPets).", naming neither.
    expect(result.stderr).toMatch(
      new RegExp(
        `^petkit mock: --fixtures ${file.replaceAll('/', '\\/')} gives 3 pets; the store holds at most 2 \\(--max-pets\\)\\.\n`,
      ),
    );
  });
  it('masks the keys of a private keys file in its banner, and shows the demo keys in full', async () => {
    const dir = folder('petkit-keys-');
    const file = join(dir, 'keys.json');
    writeFileSync(
      file,
      JSON.stringify({
        keys: [
          { key: 'sk_live_4f9a8b7c6d5e', plan: 'pro' },
          { key: 'demo-free', plan: 'free' },
        ],
      }),
    );
    const { url, output } = await startCli(['--keys', file]);
    expect(output()).toMatch(/^ {2}sk_li… +pro /m);
    expect(output()).toMatch(/^ {2}demo-free +free /m);
    expect(output()).toContain(`Try: curl -H 'Authorization: Bearer demo-free' ${url}/pets`);
    await fetch(`${url}/pets`, { headers: { authorization: 'Bearer sk_live_4f9a8b7c6d5e' } });
    const origin = new URL(url).origin;
    const journal = await (await fetch(`${origin}/__petkit/requests`)).text();
    expect(journal).toContain('"key":{"name":"sk_li…","plan":"pro"}');
    // The request's log line (written in a batch), then: no part of the key in the log or the journal.
    await expect.poll(output, { timeout: 2_000, interval: 10 }).toMatch(/ GET \/v1\/pets 200 \d+ms$/m);
    expect(output() + journal).not.toContain('4f9a8b7c6d5e');
  });
  it('turns the control API off with --no-control, and refuses it with --control-origin', async () => {
    const { url, output } = await startCli(['--no-control']);
    expect(output()).toContain('Control: off (--no-control)');
    const res = await fetch(`${new URL(url).origin}/__petkit/health`);
    expect(res.status).toBe(404);
    const both = spawnSync(
      process.execPath,
      [MAIN, 'mock', '--no-control', '--control-origin', 'http://a.test'],
      {
        encoding: 'utf8',
      },
    );
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--no-control and --control-origin conflict');
  });
  it('lets a page of a --control-origin reset the mock', async () => {
    const { url } = await startCli(['--control-origin', 'http://app.test:5173']);
    const reset = (origin: string) =>
      fetch(`${new URL(url).origin}/__petkit/reset`, { method: 'POST', headers: { origin } });
    expect((await reset('http://app.test:5173')).status).toBe(200);
    expect((await reset('http://other.test')).status).toBe(403);
  });
  it('writes the exchanges to --har FILE as HAR 1.2 when it stops, the key redacted', async () => {
    const dir = folder('petkit-har-');
    const file = join(dir, 'mock.har');
    const { url, output, exit } = await startCli(['--har', file]);
    await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
    await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":2}',
    });
    child?.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(output()).toContain(`wrote 2 exchange(s) to ${file}.`);
    const har = JSON.parse(readFileSync(file, 'utf8')) as {
      log: {
        version: string;
        entries: { request: Record<string, unknown>; response: Record<string, unknown> }[];
      };
    };
    expect(har.log.version).toBe('1.2');
    expect(
      har.log.entries.map((entry) => [entry.request.method, entry.request.url, entry.response.status]),
    ).toEqual([
      ['GET', `${url}/pets?limit=1`, 200],
      ['POST', `${url}/pets`, 201],
    ]);
    expect(har.log.entries[1]?.request.postData).toEqual({
      mimeType: 'application/json',
      text: '{"name":"Rex","categoryId":2}',
    });
    expect(har.log.entries[0]?.request.headers).toContainEqual({
      name: 'authorization',
      value: 'Bearer [redacted]',
    });
    expect(readFileSync(file, 'utf8')).not.toContain('demo-free"');
  });
  it('arms the rules of --rules FILE at start, and says so', async () => {
    const dir = folder('petkit-rules-');
    const file = join(dir, 'rules.json');
    writeFileSync(
      file,
      JSON.stringify({ rules: [{ operation: 'listPets', key: 'demo-free', respond: { status: 503 } }] }),
    );
    const { url, output } = await startCli(['--rules', file]);
    expect(output()).toContain(`  1 rule from ${file}, armed\n`);
    const ruled = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-free' } });
    expect([ruled.status, ((await ruled.json()) as { code: string }).code]).toEqual([
      503,
      'state_unavailable',
    ]);
    const other = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer demo-pro' } });
    expect(other.status).toBe(200);
    const listed = await fetch(`${new URL(url).origin}/__petkit/rules`);
    expect(await listed.json()).toMatchObject({
      rules: [{ id: 'r1', key: 'demo-free', matched: 1, fired: 1 }],
    });
  });

  it('stops with exit 2 naming the rules file and the bad rule, before it serves', () => {
    const dir = folder('petkit-rules-');
    const file = join(dir, 'rules.json');
    writeFileSync(
      file,
      JSON.stringify({
        rules: [{ respond: { delayMs: 5 } }, { operation: 'listPets', respond: { status: 404 } }],
      }),
    );
    const result = spawnSync(process.execPath, [MAIN, 'mock', '--port', '0', '--rules', file], {
      encoding: 'utf8',
      timeout: 5_000,
    });
    expect(result.status).toBe(2);
    expect(result.stdout).not.toContain('serving');
    expect(result.stderr).toBe(
      `petkit mock: Rules file ${file}: rules[1]/respond/status 404 is not a documented error status of listPets (documented: 400, 401, 429, 500, 503).\nRun 'petkit mock --help' for the options.\n`,
    );
  });

  it('prints its options with --help', () => {
    const result = spawnSync(process.execPath, [MAIN, 'mock', '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--seed',
      '--pets',
      '--keys',
      '--latency',
      '--rules',
      '--max-pets',
      '--url-file',
      '--har',
      '--control-origin',
      '--no-control',
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });
});

describe('petkit --help', () => {
  it('lists the commands', () => {
    const result = spawnSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/petkit mock/);
    expect(result.stdout).toMatch(/petkit contract/);
  });

  it('runs as the built bin itself, through its shebang, as npx petkit does', () => {
    const result = spawnSync(MAIN, ['--help'], { encoding: 'utf8' });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/petkit mock/);
  });
});
