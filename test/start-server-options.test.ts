// startServer and createMock given options of the wrong shape, as a JavaScript caller without types
// may: a MockOptionsError naming the option, and nothing left listening.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMock, MockOptionsError, type RunningServer, type ServerOptions, startServer } from 'petkit';
import { describe, expect, it, onTestFinished } from 'vitest';

/** What startServer gave: its error, or the server (closed at once, so none is left). */
async function outcome(options: unknown): Promise<unknown> {
  const result = await startServer(options as ServerOptions).then(
    (server) => server,
    (error: unknown) => error,
  );
  if (typeof (result as Partial<RunningServer>).close === 'function') await (result as RunningServer).close();
  return result;
}

const servers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

describe('startServer with options of the wrong shape', () => {
  it('refuses a port that is not an integer from 0 to 65535, and creates no Unix socket of its name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-port-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'abc');
    const refused = await outcome({ port: path });
    expect(existsSync(path)).toBe(false);
    expect(refused).toBeInstanceOf(MockOptionsError);
    expect((refused as Error).message).toBe(
      `Option port must be an integer from 0 to 65535 (0 picks a free one), got "${path}" (a string).`,
    );
    for (const port of ['4010', -1, 65536, 1.5, Number.NaN]) {
      expect(await outcome({ port })).toBeInstanceOf(MockOptionsError);
    }
  });

  it('refuses a host that is not a non-empty string, with nothing left listening', async () => {
    const before = servers();
    for (const host of [123, '', null]) {
      const refused = await outcome({ port: 0, host });
      expect(refused).toBeInstanceOf(MockOptionsError);
      expect((refused as Error).message).toMatch(/^Option host must name an address to bind/);
    }
    expect(servers()).toBe(before);
  });

  it('refuses control and timeouts of the wrong type, naming each', async () => {
    const cases: [unknown, string][] = [
      [{ port: 0, control: true }, /^Option control must be false \(off\) or an object/.source],
      [{ port: 0, timeouts: 'x' }, /^Option timeouts must be an object/.source],
    ];
    for (const [options, message] of cases) {
      const refused = await outcome(options);
      expect(refused).toBeInstanceOf(MockOptionsError);
      expect((refused as Error).message).toMatch(message.startsWith('^') ? new RegExp(message) : message);
    }
  });

  it('checks them when given a mock too, and refuses a mock that is not one, with nothing left listening', async () => {
    const before = servers();
    const mock = createMock();
    for (const [options, message] of [
      [{ mock, port: 0, host: 123 }, /^Option host must name an address to bind/],
      [{ mock, port: '4010' }, /^Option port must be an integer from 0 to 65535/],
      [{ mock, port: 0, control: true }, /^Option control must be false \(off\) or an object/],
      [{ mock: {}, port: 0 }, /^Option mock must be a mock made by createMock\(\), got an object\.$/],
      [{ mock: null, port: 0 }, /^Option mock must be a mock made by createMock\(\), got null\.$/],
      [null, /^Options must be an object such as \{ port: 4010 \}, got null\.$/],
    ] as const) {
      const refused = await outcome(options);
      expect(refused).toBeInstanceOf(MockOptionsError);
      expect((refused as Error).message).toMatch(message);
    }
    expect(servers()).toBe(before);
  });

  it('still starts with the options as documented', async () => {
    const server = await startServer({ port: 0, host: '127.0.0.1', control: false, mock: createMock() });
    onTestFinished(() => server.close());
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });
});

describe('startServer on every interface', () => {
  it('gives as its url one a client can open (loopback), not 0.0.0.0 or [::], and says where it listens', async () => {
    for (const [host, address, shown] of [
      ['0.0.0.0', '0.0.0.0', '127.0.0.1'],
      ['::', '::', '[::1]'],
    ] as const) {
      const server = await startServer({ port: 0, host });
      onTestFinished(() => server.close());
      const { port } = server.listening;
      expect(server.listening).toEqual({ address, port });
      expect(server.url).toBe(`http://${shown}:${port}/v1`);
      expect(server.origin).toBe(`http://${shown}:${port}`);
      const res = await fetch(`${server.url}/pets?limit=1`, {
        headers: { authorization: 'Bearer demo-free' },
      });
      expect(res.status).toBe(200);
      expect((await fetch(`${server.origin}/__petkit/health`)).status).toBe(200);
    }
    const one = await startServer({ port: 0, host: '127.0.0.1' });
    onTestFinished(() => one.close());
    expect(one.url).toBe(`http://127.0.0.1:${one.listening.port}/v1`);
    expect(one.listening.address).toBe('127.0.0.1');
  });
});

describe('createMock with options of the wrong shape', () => {
  it('refuses each at once, naming it, rather than failing every request later', () => {
    const cases: [unknown, string][] = [
      [null, 'Options must be an object such as { seed: 42 }, got null.'],
      [5, 'Options must be an object such as { seed: 42 }, got a number.'],
      [{ clock: 5 }, 'Option clock must be a function, got a number.'],
      [{ random: 'x' }, 'Option random must be a function, got a string.'],
      [
        { logger: {} },
        'Option logger must be an object with functions info(line) and error(line), such as console; got an object with no info function.',
      ],
      [
        { logger: { info: () => undefined } },
        'Option logger must be an object with functions info(line) and error(line), such as console; got an object with no error function.',
      ],
      [
        { logger: 'x' },
        'Option logger must be an object with functions info(line) and error(line), such as console; got a string.',
      ],
      [{ rules: {} }, 'Option rules must be an array of rules, got an object.'],
    ];
    for (const [options, message] of cases) {
      expect(() => createMock(options as never)).toThrow(new MockOptionsError(message));
    }
  });

  it('refuses a clock or a random that answers what they cannot, naming the option, not "Invalid Date" or a latency past its range', async () => {
    const request = (options: object) =>
      createMock(options).request('/v1/pets?limit=1', { headers: { authorization: 'Bearer demo-free' } });
    for (const [clock, returned] of [
      [() => 'x', 'a string'],
      [() => Number.NaN, 'NaN'],
      [() => new Date(), 'an object'],
      [() => -1, '-1'],
    ] as const) {
      await expect(request({ clock })).rejects.toThrow(
        new MockOptionsError(
          `Option clock must return the time in ms since the epoch, as Date.now() does; it returned ${returned}.`,
        ),
      );
    }
    await expect(request({ random: () => 2, latency: { min: 0, max: 10 } })).rejects.toThrow(
      new MockOptionsError(
        'Option random must return a number in [0, 1), as Math.random() does; it returned 2.',
      ),
    );
    const res = await request({ clock: () => Date.parse('2030-01-01T00:00:00Z'), random: () => 0.5 });
    expect(res.headers.get('date')).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
  });
});
