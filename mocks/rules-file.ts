// Reads a rules file from disk, for `petkit mock --rules FILE` (Node only): `{"rules": [rule, …]}`,
// each rule as `POST /__petkit/rules` takes it. Checked whole before the mock serves, so a rule that
// could never be armed stops it at start, named by its index and its fault.
import type { RuleInput } from './control-types.js';
import { readJsonText } from './json-text.js';
import { MockOptionsError } from './options.js';
import { pathInWords, readBoundedFile } from './read-bounded-file.js';
import { normalizeRules, type RuleContext } from './rules.js';

/** Most bytes a rules file may hold: 100 rules of the longest path and key, pretty-printed, fit. */
export const MAX_RULES_FILE_BYTES = 256 * 2 ** 10;

const SHAPE = 'must be an object {"rules": [rule, …]}';

/** The rules of `{"rules": […]}`, or what is wrong with the file's shape. */
function rulesOf(value: unknown): unknown[] | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return SHAPE;
  const unknown = Object.keys(value).find((name) => name !== 'rules');
  if (unknown !== undefined)
    return `/${unknown.slice(0, 40)} is not an allowed property: a rules file is {"rules": [rule, …]}`;
  const { rules } = value as { rules?: unknown };
  if (!Array.isArray(rules))
    return `/rules ${rules === undefined ? 'is required' : 'must be an array of rules'}`;
  return rules;
}

/**
 * The rules of a rules file, checked as the mock will arm them (`context`: its keys and seed); throws
 * MockOptionsError naming the file and its first fault (`Rules file r.json: rules[1]/respond/status …`):
 * no such file, not a regular file, over MAX_RULES_FILE_BYTES, not JSON (by line and column), not a
 * rules file, or a rule that cannot be armed.
 */
export function loadRulesFile(path: string, context: RuleContext): RuleInput[] {
  const file = readBoundedFile(path, { maxBytes: MAX_RULES_FILE_BYTES, what: 'a rules file' });
  if ('fault' in file)
    throw new MockOptionsError(`Rules file ${pathInWords(path)}: ${file.fault}.`, { cause: file.cause });
  const read = readJsonText(file.text);
  if ('fault' in read) throw new MockOptionsError(`Rules file ${path}: ${read.fault}.`);
  const rules = rulesOf(read.value);
  if (typeof rules === 'string') throw new MockOptionsError(`Rules file ${path}: ${rules}.`);
  try {
    normalizeRules(rules, context);
  } catch (error) {
    if (error instanceof MockOptionsError) throw new MockOptionsError(`Rules file ${path}: ${error.message}`);
    throw error;
  }
  // Each was just checked against RuleInput: the cast names what it is.
  return rules as RuleInput[];
}
