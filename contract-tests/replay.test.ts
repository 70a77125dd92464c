// Every curl line a report prints is POSIX sh (dash here, as /bin/sh): it parses (`sh -n`), and run
// with API_KEY set (curl a shell function that prints its arguments) it sends the Authorization the
// suite sent, whatever the key holds and however the suite changed it.
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { type Auth, createClient } from './client.js';
import { type RequestRecord, toCurl } from './exchange.js';
import { createRedactor } from './redaction.js';

/** The arguments the line passes to curl, run by /bin/sh with API_KEY set to the key. */
function replay(curl: string, key: string): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\000' "$a"; done; }\n${curl}\n`;
  execFileSync('/bin/sh', ['-n', '-c', script]);
  const out = execFileSync('/bin/sh', ['-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', API_KEY: key },
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

/** The Authorization header the replayed line sends, or undefined. */
function authorizationOf(args: readonly string[]): string | undefined {
  const index = args.findIndex((arg, i) => args[i - 1] === '-H' && /^authorization:/i.test(arg));
  return index === -1 ? undefined : args[index]?.replace(/^authorization: /i, '');
}

const KEYS = [
  'secret-key-123',
  `Sk'"$HOME\`id\`\\x|y!z%41=`,
  'abc_DEF-ghi.JKL~mno+pqr/stu=',
  'my$API_KEY',
  '12345678',
];
const AUTHS: readonly Auth[] = ['key', 'none', 'wrong', 'scheme', 'lower-scheme', 'key-case'];

describe.each(KEYS)('with the key %j', (key) => {
  test.each(AUTHS)('auth %s: the curl line sends what the suite sent, and shows no key', async (auth) => {
    const sent: (string | undefined)[] = [];
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: key,
      redactor: createRedactor(key),
      timeoutMs: 1000,
      maxRpm: undefined,
      readOnly: false,
      maxWaitMs: 1000,
      maxRetries: 0,
      backoffBaseMs: 1,
      fetch: (async (_url: string | URL | Request, init?: RequestInit) => {
        sent.push((init?.headers as Record<string, string> | undefined)?.authorization);
        return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
      }) as typeof fetch,
      now: () => 0,
      sleep: async () => {},
      random: () => 0.5,
      onExchange: () => {},
    });
    const exchange = await client.send({ operationId: 'listPets', method: 'GET', path: '/pets', auth });
    const curl = toCurl(exchange.request);
    if (auth !== 'wrong' && auth !== 'none') expect(curl).not.toContain(key);
    expect(authorizationOf(replay(curl, key))).toBe(sent[0]);
  });
});

describe('a form of the key the suite could send is written from $API_KEY', () => {
  const key = 'abc_DEF-ghi.JKL~mno+pqr/stu=';
  const swapped = [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  test.each([
    ['the key', `Bearer ${key}`],
    ['the key, a letter after it', `Bearer ${key}x`],
    ['the key, an underscore after it', `Bearer ${key}_`],
    ['the key twice', `Bearer ${key}${key}`],
    ['the key cut by one', `Bearer ${key.slice(0, -1)}`],
    ['the key without its first character', `Bearer ${key.slice(1)}`],
    ['a long middle part of the key', `Bearer ${key.slice(5, 22)}`],
    ['the key upper-cased', `Bearer ${key.toUpperCase()}`],
    ['the key lower-cased', `Bearer ${key.toLowerCase()}`],
    ['the key with its case swapped', `Bearer ${swapped}`],
    ['a part of the key, upper-cased', `Bearer ${key.slice(0, 20).toUpperCase()}`],
    ['the key in quotes', `Bearer "${key}"`],
  ])('%s', (_what, authorization) => {
    const redactor = createRedactor(key);
    const request: RequestRecord = {
      method: 'GET',
      url: `http://127.0.0.1:9/v1/pets?note=${redactor.request("it's")}`,
      headers: { authorization: redactor.request(authorization) },
    };
    const curl = toCurl(request);
    expect(curl.toLowerCase()).not.toContain(key.slice(0, 14).toLowerCase());
    expect(curl.toLowerCase()).not.toContain(key.slice(-14).toLowerCase());
    const args = replay(curl, key);
    expect(authorizationOf(args)).toBe(authorization);
    expect(args).toContain("http://127.0.0.1:9/v1/pets?note=it's");
  });
});
