import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { demoKeysFile, resolveKeys } from './keys.js';
import { MockOptionsError } from './options.js';
import { loadRulesFile, MAX_RULES_FILE_BYTES } from './rules-file.js';

const context = { seed: 42, keys: resolveKeys(demoKeysFile()) };

function fileOf(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'petkit-rules-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'rules.json');
  writeFileSync(path, text);
  return path;
}

describe('loadRulesFile (--rules FILE)', () => {
  it('answers the rules of {"rules": […]}, each checked as the mock will arm it', () => {
    const rules = [
      { operation: 'listPets', key: 'demo-free', times: 2, respond: { status: 429 } },
      { path: '/v1/pets/*', respond: { fault: 'reset' } },
    ];
    expect(loadRulesFile(fileOf(JSON.stringify({ rules })), context)).toEqual(rules);
    expect(loadRulesFile(fileOf('{"rules": []}'), context)).toEqual([]);
  });

  it('names the file and the first bad rule by its index and pointer', () => {
    const path = fileOf(
      JSON.stringify({
        rules: [{ respond: { delayMs: 5 } }, { operation: 'getPet', respond: { status: 201 } }],
      }),
    );
    expect(() => loadRulesFile(path, context)).toThrow(
      new MockOptionsError(`Rules file ${path}: rules[1]/respond/status must be >= 400; got 201.`),
    );
    const secret = fileOf(
      JSON.stringify({ rules: [{ key: 'sk_live_secret_value', respond: { fault: 'close' } }] }),
    );
    const message = (() => {
      try {
        loadRulesFile(secret, context);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message).toBe(`Rules file ${secret}: rules[0]/key sk_li… names no key of the keys file.`);
  });

  it('names what is wrong with a file that is not a rules file, never quoting it', () => {
    const cases: [string, string][] = [
      ['[]', 'must be an object {"rules": [rule, …]}.'],
      ['{"rule": []}', '/rule is not an allowed property: a rules file is {"rules": [rule, …]}.'],
      ['{}', '/rules is required.'],
      ['{"rules": {}}', '/rules must be an array of rules.'],
      ['{"rules": [\n  {"respond": {"fault": "reset"}},\n]}', 'is not valid JSON at line 3, column 1'],
    ];
    for (const [text, fault] of cases) {
      const path = fileOf(text);
      expect(() => loadRulesFile(path, context), text).toThrow(`Rules file ${path}: ${fault}`);
    }
    expect(() => loadRulesFile('/nonexistent/rules.json', context)).toThrow(
      'Rules file /nonexistent/rules.json: no such file.',
    );
    expect(() => loadRulesFile('/dev/zero', context)).toThrow(
      'Rules file /dev/zero: is a character device, not a regular file.',
    );
    const large = fileOf(`{"rules": [], "pad": "${'x'.repeat(MAX_RULES_FILE_BYTES)}"}`);
    expect(() => loadRulesFile(large, context)).toThrow('a rules file may be at most 256 KiB');
  });
});
