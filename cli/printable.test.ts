// What a refusal of petkit mock or petkit proxy quotes from a file or a flag reaches the terminal as
// text, never as the control sequence it holds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import { printable } from './output.js';

const MAIN = fileURLToPath(new URL('../dist/bin/petkit.js', import.meta.url));

function fileOf(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'petkit-printable-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const mock = (...args: string[]) =>
  spawnSync(process.execPath, [MAIN, 'mock', '--port', '0', ...args], { encoding: 'utf8', timeout: 5_000 });

it('prints the control characters a file or a flag holds as escapes, not as the terminal would act on them', () => {
  const rules = fileOf(
    'rules.json',
    '{"rules":[{"operation":"listPets","path":"/v1/pets\\u001b[2J","respond":{"status":429}}]}',
  );
  const keys = fileOf('keys.json', '{"keys":[{"key":"k","plan":"free","\\u001b[31m":1}]}');
  const refusals = [
    mock('--rules', rules),
    mock('--keys', keys),
    mock('--seed', '\u001b]0;title\u0007'),
    spawnSync(process.execPath, [MAIN, 'proxy', '--upstream', 'http://\u001b[2J'], { encoding: 'utf8' }),
  ];
  for (const run of refusals) {
    expect(run.status).toBe(2);
    // Nothing but a newline below a space, nor DEL and the C1 controls.
    expect(
      [...run.stderr].filter((c) => (c < ' ' && c !== '\n') || (c >= '\u007f' && c <= '\u009f')),
    ).toEqual([]);
  }
  expect(refusals[0]?.stderr).toContain(
    'rules[0]/path /v1/pets\\u001b[2J holds a space or a control character',
  );
  expect(refusals[1]?.stderr).toContain('keys[0] has an unknown property "\\u001b[31m".');
  expect(refusals[2]?.stderr).toContain(
    '--seed must be an integer from 0 to 4294967295, got "\\u001b]0;title\\u0007".',
  );
});

it('prints what a reader cannot see as the contract suite reports it: a lone surrogate, U+200B, U+FEFF, U+200E', () => {
  const keys = fileOf(
    'keys.json',
    '{"keys":[{"key":"k","plan":"free","a\\u200bb\\ud800c\\ufeffd\\u200ee":1}]}',
  );
  const missing = join(keys, '..', 'rules\u200b\u2060.json');
  const refusals = [mock('--keys', keys), mock('--rules', missing)];
  for (const run of refusals) {
    expect(run.status).toBe(2);
    // Node writes a lone surrogate as U+FFFD: the character the file held would be lost.
    expect(run.stderr).not.toMatch(/[\u200b\u2060\u200e\ufeff\ufffd]/u);
  }
  expect(refusals[0]?.stderr).toContain(
    'keys[0] has an unknown property "a\\u200bb\\ud800c\\ufeffd\\u200ee".',
  );
  expect(refusals[1]?.stderr).toContain('rules\\u200b\\u2060.json');
});

it('escapes the characters that would reorder the rest of the line, and leaves the rest as it is', () => {
  expect(printable('a\u202eb\u2066c\u2028d é 🐶 \t')).toBe('a\\u202eb\\u2066c\\u2028d é 🐶 \\u0009');
});

it('prints an unknown command as escapes', () => {
  const unknown = spawnSync(process.execPath, [MAIN, '\u001b[2Jmock'], { encoding: 'utf8' });
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toMatch(/^petkit: unknown command "\\u001b\[2Jmock"\.\n/);
});

it('prints what petkit contract refuses of its flags and files as escapes', async () => {
  const { run } = await import('./contract.js');
  const { captureIo } = await import('../test/support/contract-io.js');
  const folder = join(fileOf('x', ''), '..');
  const base = ['--api-key', 'sk_live_12345678', '--base-url', 'http://127.0.0.1:1/v1'];
  for (const argv of [
    [...base, '--reporter', '\u001b[2J'],
    [...base, '--har', join(folder, 'missing\u001b]0;title\u0007', 'run.har')],
    [...base, '--output', join(folder, 'r\u001b[2J.json'), '--har', join(folder, 'r\u001b[2J.json')],
    ['--\u001b[2Jx'],
  ]) {
    const io = captureIo();
    expect(await run(argv, io.io)).toBe(2);
    expect(io.err()).toMatch(/\\u001b/);
    expect([...io.err()].filter((c) => (c < ' ' && c !== '\n') || (c >= '\u007f' && c <= '\u009f'))).toEqual(
      [],
    );
  }
});
