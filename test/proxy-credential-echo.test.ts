// petkit proxy before an upstream that refuses the app's credential and echoes it back: in its body,
// in a header the checks quote, cut short, upper-cased, as a Basic password decoded, or in an answer
// it stops halfway. The built CLI, as a user runs it, with and without --api-key: the credential the
// app sent shows in nothing it prints (stdout, stderr) or keeps (the journal at /__petkit/departures).
import { afterEach, describe, expect, it } from 'vitest';
import { type CliProxy, startCliProxy } from './hostile-proxy/cli-proxy.js';
import { rawUpstream } from './hostile-proxy/servers.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The app's credential: no key the proxy is told, refused by the upstream. */
const SENT = 'sk_live_Q7wErTy9UiOp2Zx';
/** A Basic credential's password, which the upstream echoes decoded. */
const PASSWORD = 'hunter2-Kv8nPq';
/** The key the user tells the proxy in the second run: not the one the app sends. */
const TOLD = 'sk_test_told_Mm3Jk8';

/** Every run of six characters of `secret`, lower-cased: none may appear in what the proxy says. */
const runsOf = (secret: string) =>
  Array.from({ length: secret.length - 5 }, (_, i) => secret.slice(i, i + 6).toLowerCase());

/**
 * An upstream on a raw socket that refuses every request and echoes the token it was sent: where
 * depends on the path, so each of the proxy's texts gets a turn.
 */
async function echoingUpstream(): Promise<string> {
  const { upstream } = await rawUpstream((socket, head) => {
    const [, path = ''] = /^\S+ (\S+)/.exec(head) ?? [];
    const authorization = /^authorization: *(.*)$/im.exec(head)?.[1]?.trim() ?? '';
    const [scheme = '', token = ''] = authorization.split(/ +/);
    const echoed = /^basic$/i.test(scheme)
      ? (Buffer.from(token, 'base64').toString('utf8').split(':')[1] ?? '')
      : token;
    const status = path.includes('/pets/3') ? 500 : path.includes('/pets/4') ? 403 : 401;
    const body = path.includes('/pets/1')
      ? `key ${echoed} is not valid` // not JSON: the departure quotes where it breaks
      : path.includes('/pets/3')
        ? `${echoed.toUpperCase()} failed`
        : path.includes('/pets/4')
          ? `{"code":"invalid_api_key","message":"key ${echoed.slice(0, 12)}... is not valid" "status":403}`
          : JSON.stringify({ code: 'invalid_api_key', message: `key ${echoed} is not valid`, status });
    const headers = [
      `HTTP/1.1 ${status} Refused`,
      'Content-Type: application/json',
      `WWW-Authenticate: Bearer realm="pets", error="invalid_token", error_description="${echoed} is not valid"`,
      // A header the checks quote when it is not what the document says.
      `X-RateLimit-Limit: ${echoed}`,
      `X-Rejected-Key: ${echoed}`,
      'Connection: close',
    ];
    if (path.includes('/pets/6')) {
      // The refusal in UTF-16 (a .NET or Java service's default encoding): NULs between the key's characters.
      const utf16 = Buffer.from(`${echoed} is not valid`, 'utf16le');
      socket.end(
        Buffer.concat([
          Buffer.from(`${[...headers, `Content-Length: ${utf16.length}`].join('\r\n')}\r\n\r\n`),
          utf16,
        ]),
      );
      return;
    }
    if (path.includes('/pets/5')) {
      // Stops short of the Content-Length it announced: stderr says so, naming the target.
      socket.end(`${[...headers, 'Content-Length: 1000'].join('\r\n')}\r\n\r\n${body}`);
      return;
    }
    socket.end(`${[...headers, `Content-Length: ${Buffer.byteLength(body)}`].join('\r\n')}\r\n\r\n${body}`);
  }, closers);
  return upstream;
}

async function send(proxy: CliProxy, path: string, authorization: string): Promise<void> {
  try {
    await (await fetch(`${proxy.origin}${path}`, { headers: { authorization } })).text();
  } catch {
    // /v1/pets/5's answer is cut: the app sees it so, and the proxy says it on stderr.
  }
}

/** Waits until the proxy has printed `pattern`, or fails the test after a while. */
async function printed(proxy: CliProxy, pattern: RegExp): Promise<void> {
  for (let tries = 0; tries < 500 && !pattern.test(proxy.output()); tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(proxy.output()).toMatch(pattern);
}

describe('petkit proxy, before an upstream that echoes the credential it refused', () => {
  /** Sends the app's credential where the upstream echoes it back each way: what the proxy said and kept. */
  async function echoed(flags: readonly string[]) {
    const upstream = await echoingUpstream();
    const proxy = await startCliProxy(['--upstream', upstream, ...flags]);
    closers.push(() => proxy.stop());
    const bearer = `Bearer ${SENT}`;
    await send(proxy, '/v1/pets/1', bearer);
    await send(proxy, `/v1/pets/2?api_key=${SENT}`, bearer);
    await send(proxy, '/v1/pets/3', bearer);
    await send(proxy, '/v1/pets/4', bearer);
    await send(proxy, `/v1/pets/5?api_key=${SENT}`, bearer);
    await send(proxy, '/v1/pets/1', `Basic ${Buffer.from(`ada:${PASSWORD}`).toString('base64')}`);
    await printed(proxy, /stopped short of the end of its answer to GET \/v1\/pets\/5/);
    await printed(proxy, /(GET \/v1\/pets\/1 401 .*\n[\s\S]*){2}/);
    const journal = await (await fetch(`${proxy.origin}/__petkit/departures`)).text();
    const said = `${proxy.output()}\n${journal}`;
    // Each echo reached a text: the departures quote the body and the header where the credential was.
    expect(said).toContain('received: X-RateLimit-Limit: "<credential sent>" must be integer');
    expect(said).toContain('where a JSON value was due: "key <credential sent> is…"');
    expect(said).toContain('where a JSON value was due: \\"<credential sent> failed\\"');
    expect(said).toMatch(/^GET \/v1\/pets\/2\?api_key=<credential sent> 401 \d+ms/m);
    expect(said).toMatch(
      /stopped short of the end of its answer to GET \/v1\/pets\/5\?api_key=<credential sent>$/m,
    );
    expect(said).toContain('"target":"/v1/pets/2?api_key=<credential sent>"');
    return said;
  }

  it('not told the key: shows the credential sent in nothing it prints or keeps', async () => {
    const said = await echoed([]);
    expect(said).toContain(`curl -i -H 'Authorization: Bearer not-the-key-sent'`);
    for (const run of [...runsOf(SENT), ...runsOf(PASSWORD)]) expect(said.toLowerCase()).not.toContain(run);
  });

  it('shows the credential sent in nothing it prints or keeps when the upstream echoes it in UTF-16', async () => {
    const upstream = await echoingUpstream();
    const proxy = await startCliProxy(['--upstream', upstream]);
    closers.push(() => proxy.stop());
    await send(proxy, '/v1/pets/6', `Bearer ${SENT}`);
    await printed(proxy, /GET \/v1\/pets\/6 401 /);
    const journal = await (await fetch(`${proxy.origin}/__petkit/departures`)).text();
    const said = `${proxy.output()}\n${journal}`;
    // It was quoted with its NULs, the key read as s\u0000k\u0000_\u0000l…: now found, and the text
    // shown without them.
    expect(said).toContain(
      'it breaks at byte 0 (line 1, column 1), where a JSON value was due: "<credential sent> is not…"',
    );
    const withoutNuls = said.replaceAll('\\\\u0000', '').replaceAll('\\u0000', '').replaceAll('\u0000', '');
    for (const run of runsOf(SENT)) expect(withoutNuls.toLowerCase()).not.toContain(run);
  });

  it('told another key: shows it in the replay line alone, as docs/proxy.md says, in no other text', async () => {
    const said = await echoed(['--api-key', TOLD]);
    // The replay line shows a refused credential that is not the key told as sent: docs/proxy.md's table.
    expect(said).toContain(`replay:   curl -i -H 'Authorization: Bearer ${SENT}'`);
    const besides = said.replace(/^ {2}replay: .*$/gm, '').replace(/"curl":"(?:[^"\\]|\\.)*"/g, '');
    for (const run of [...runsOf(SENT), ...runsOf(PASSWORD)])
      expect(besides.toLowerCase()).not.toContain(run);
    expect(said.toLowerCase()).not.toContain(TOLD.toLowerCase());
  });
});

/** The forms an upstream echoes a credential in, by the name the test's path gives: `?e=pct`. */
const ENCODINGS: Record<string, (text: string) => string> = {
  pct: (text) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
  query: (text) => encodeURIComponent(text).replaceAll('_', '%5F'),
  json: (text) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  html: (text) => [...text].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
  base64: (text) => Buffer.from(text).toString('base64'),
  base64pair: (text) => Buffer.from(`ada:${text}`).toString('base64'),
};

describe('petkit proxy, before an upstream that echoes the credential encoded', () => {
  it('shows it in nothing it prints or keeps: percent-encoded, JSON- or HTML-escaped, in base64, split across chunks, in Location, Set-Cookie or a reason phrase', async () => {
    const { upstream } = await rawUpstream((socket, head) => {
      const [, path = ''] = /^\S+ (\S+)/.exec(head) ?? [];
      const token = /^authorization: *bearer +(.*)$/im.exec(head)?.[1]?.trim() ?? '';
      const encode = ENCODINGS[new URL(path, 'http://x').searchParams.get('e') ?? ''] ?? ((t: string) => t);
      const echoed = encode(token);
      // A body that is not JSON, its first bytes the echo (so the excerpt quotes them), in chunks
      // that cut the echo in three.
      const body = `${echoed} is not valid`;
      const cuts = [Math.floor(echoed.length / 3), Math.floor((2 * echoed.length) / 3)];
      const chunks = [body.slice(0, cuts[0]), body.slice(cuts[0], cuts[1]), body.slice(cuts[1])];
      socket.end(
        [
          `HTTP/1.1 401 Refused ${token}`,
          'Content-Type: application/json',
          `X-RateLimit-Limit: ${echoed}`,
          `Location: /v1/pets?k=${echoed}`,
          `Set-Cookie: k=${echoed}; Path=/`,
          'Transfer-Encoding: chunked',
          'Connection: close',
          '',
          ...chunks.flatMap((chunk) => [Buffer.byteLength(chunk).toString(16), chunk]),
          '0',
          '',
          '',
        ].join('\r\n'),
      );
    }, closers);
    for (const flags of [[], ['--api-key', SENT]]) {
      const proxy = await startCliProxy(['--upstream', upstream, ...flags]);
      closers.push(() => proxy.stop());
      for (const e of Object.keys(ENCODINGS)) await send(proxy, `/v1/pets/7?e=${e}`, `Bearer ${SENT}`);
      await printed(
        proxy,
        new RegExp(`(GET /v1/pets/7\\?e=\\w+ 401 [^\\n]*\\n[\\s\\S]*){${Object.keys(ENCODINGS).length}}`),
      );
      const journal = await (await fetch(`${proxy.origin}/__petkit/departures`)).text();
      const said = `${proxy.output()}\n${journal}`;
      // Each echo reached a text: the header's departure and the body's excerpt.
      expect(said).toContain('received: X-RateLimit-Limit: "');
      expect(said).toContain('where a JSON value was due: "');
      const besides = said.replace(/^ {2}replay: .*$/gm, '').replace(/"curl":"(?:[^"\\]|\\.)*"/g, '');
      for (const encode of Object.values(ENCODINGS)) {
        // The encoded echo, or any 12 of its characters in a row.
        const form = encode(SENT);
        for (let i = 0; i + 12 <= form.length; i += 1) expect(besides).not.toContain(form.slice(i, i + 12));
      }
      for (const run of runsOf(SENT)) expect(besides.toLowerCase()).not.toContain(run);
    }
  });
});
