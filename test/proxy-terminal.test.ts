// petkit proxy before an upstream whose answers carry what a terminal acts on: ESC sequences, C1
// controls (U+009B is a CSI) and bidirectional overrides, in a header the checks quote and in a body
// that is not JSON. The built CLI, as a user runs it: neither its output nor its journal, read with
// curl in the same terminal, carries one of them as it is; the journal still holds them, escaped.
import { afterEach, describe, expect, it } from 'vitest';
import { startCliProxy } from './hostile-proxy/cli-proxy.js';
import { rawUpstream } from './hostile-proxy/servers.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** What a terminal acts on or reorders by, as bytes of UTF-8: C0 but tab and LF, DEL, C1, bidi, separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]/;

const BIDI = '\u202e\u2066evil\u2069';

/** An upstream on a raw socket: listPets answered 200 with these characters where the checks quote them. */
async function hostileUpstream(): Promise<string> {
  const { upstream } = await rawUpstream((socket) => {
    const body = Buffer.from(`${BIDI} \x1b]0;pwned\x07\x1b[2J \u009b31m not json`, 'utf8');
    socket.end(
      Buffer.concat([
        Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-RateLimit-Limit: '),
        // A C1 CSI and the override as obs-text bytes, which Node reads as latin1.
        Buffer.from([0x9b]),
        Buffer.from('2J', 'latin1'),
        Buffer.from(BIDI, 'utf8'),
        Buffer.from(`\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
        body,
      ]),
    );
  }, closers);
  return upstream;
}

describe('petkit proxy, before an upstream that sends terminal controls', () => {
  it('prints them and serves its journal escaped, the journal holding them still', async () => {
    const proxy = await startCliProxy(['--upstream', await hostileUpstream()]);
    closers.push(() => proxy.stop());
    await (await fetch(`${proxy.origin}/v1/pets`)).arrayBuffer();
    for (let tries = 0; tries < 500 && !/^GET \/v1\/pets 200 /m.test(proxy.output()); tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const journal = Buffer.from(await (await fetch(`${proxy.origin}/__petkit/departures`)).arrayBuffer());

    expect(proxy.output()).toContain('received: X-RateLimit-Limit: "\\u009b2J');
    expect(Buffer.from(proxy.output(), 'utf8').toString('latin1')).not.toMatch(RAW_CONTROL);
    expect(journal.toString('latin1')).not.toMatch(RAW_CONTROL);
    // Escaped as JSON reads them: the same characters once parsed.
    const { departures } = JSON.parse(journal.toString('utf8')) as { departures: { received: string }[] };
    const received = departures.map((d) => d.received).join('\n');
    expect(received).toContain('X-RateLimit-Limit: "\u009b2J');
    expect(received).toContain(`"${BIDI} \\u001b]0;pwned`);
  });
});

/**
 * What the contract suite's reports show escaped beyond the controls: the byte-order mark, the
 * zero-width space, the word joiner, the left-to-right and Arabic letter marks (bidirectional controls
 * outside the overrides and isolates), each invisible on a terminal.
 */
const INVISIBLE = /[\uFEFF\u200B\u2060\u200E\u061C]/u;

describe('petkit proxy, before an upstream whose body holds characters a reader cannot see', () => {
  it('prints them and serves its journal escaped, as the contract suite reports them', async () => {
    const { upstream } = await rawUpstream((socket) => {
      const body = Buffer.from('\uFEFF{"id":"a\u200Bb\u2060c\u200Ed\u061Ce"}', 'utf8');
      socket.end(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
          ),
          body,
        ]),
      );
    }, closers);
    const proxy = await startCliProxy(['--upstream', upstream]);
    closers.push(() => proxy.stop());
    await (await fetch(`${proxy.origin}/v1/pets`)).arrayBuffer();
    for (let tries = 0; tries < 500 && !/^GET \/v1\/pets 200 /m.test(proxy.output()); tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const journal = await (await fetch(`${proxy.origin}/__petkit/departures`)).text();

    expect(proxy.output()).toMatch(
      /^ {2}received: .*"\\ufeff\{\\"id\\":\\"a\\u200bb\\u2060c\\u200ed\\u061ce/m,
    );
    expect(proxy.output()).not.toMatch(INVISIBLE);
    expect(journal).not.toMatch(INVISIBLE);
    // Escaped as JSON reads them: the same characters once parsed.
    const { departures } = JSON.parse(journal) as { departures: { received: string }[] };
    expect(departures.map((d) => d.received).join('\n')).toContain(
      '\uFEFF{\\"id\\":\\"a\u200Bb\u2060c\u200Ed\u061Ce',
    );
  });
});
