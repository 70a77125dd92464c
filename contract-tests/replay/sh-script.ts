// A sequence of exchanges as a runnable POSIX sh script of curl lines: what a finding of the stateful
// sequences prints, so that a user can replay it by hand. The key is only ever $API_KEY (the request
// records are already redacted, in the forms toCurl expands); ids that a 201 gave are captured from its
// body with sed and used by later steps, so the script replays on a store whose ids differ.
import { type Exchange, toCurl } from '../exchange.js';
import type { PetId } from '../pet-id.js';

export interface ScriptStep {
  readonly exchange: Exchange;
  /** What was expected and why, one line: the step's comment. */
  readonly note: string;
  /** The statuses that keep the contract at this step, for the line the script prints: `200`, `200 or 404`. */
  readonly expected: string;
  /** The shell variable that takes the id of the pet a 201 to this step holds (`id2`). */
  readonly captureId?: string;
  /**
   * The URL's path under $BASE as a shell expansion, where it uses a captured id: `/pets/${id2}`,
   * `/pets/$((id2 + 1))`. Without it, the path the request was sent to.
   */
  readonly shellPath?: string;
  /**
   * An id the captured one must differ from, and whose it is: a literal id (`51`) or a captured one
   * (`id1`), and `pet 51 (created earlier in the run)`. The script prints the id it got beside it.
   */
  readonly idOtherThan?: { readonly id: PetId | string; readonly what: string };
}

export interface ShScriptInput {
  /** The base URL the run was pointed at (`…/v1`): the default of $BASE. */
  readonly baseUrl: string;
  readonly title: string;
  readonly steps: readonly ScriptStep[];
}

/**
 * A 201 body's id, also when the body is pretty-printed over lines: `"id"` (not `"categoryId"`) then a
 * JSON integer.
 */
export const CAPTURE_ID = `sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\\(-\\{0,1\\}[0-9]\\{1,\\}\\).*/\\1/p'`;

/** Stands for the URL in toCurl's line, to be replaced by the $BASE form (no quote, no $ in it). */
const URL_MARK = 'PETKIT-SCRIPT-URL';

/** A comment's text on one line, with nothing that could end it. */
const comment = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Text inside an echo's double quotes, with nothing the shell would expand. */
const plain = (text: string) => comment(text).replace(/["\\`$]/g, '');

function curlLine(step: ScriptStep, baseUrl: string): string {
  const { request } = step.exchange;
  const path =
    step.shellPath ?? (request.url.startsWith(baseUrl) ? request.url.slice(baseUrl.length) : undefined);
  // A path that is literal text goes in single quotes after "$BASE"; an expansion in double quotes.
  const url =
    path === undefined
      ? undefined
      : step.shellPath === undefined
        ? `"$BASE"'${path.replaceAll("'", `'\\''`)}'`
        : `"$BASE${path}"`;
  const line = toCurl({ ...request, url: url === undefined ? request.url : URL_MARK });
  const withUrl = url === undefined ? line : line.replace(`'${URL_MARK}'`, url);
  // -i shows the headers; the body also goes to "$out" for the next capture, the status to $code.
  return withUrl.replace(/^curl -i /, `code=$(curl -sS -o "$out" -w '%{http_code}' `).concat(')');
}

/** The script: `set -u`, the key required from the environment, each step commented and its status shown. */
export function toShScript(input: ShScriptInput): string {
  const lines = [
    '#!/bin/sh',
    `# ${comment(input.title)}`,
    '# Replays the sequence with curl: API_KEY=... sh this-file (BASE=... to point it elsewhere).',
    'set -u',
    `: "\${API_KEY:?set API_KEY to the key the run used}"`,
    `BASE=\${BASE:-'${input.baseUrl.replaceAll("'", `'\\''`)}'}`,
    'out=$(mktemp) || exit 2',
    `trap 'rm -f "$out"' EXIT`,
  ];
  input.steps.forEach((step, i) => {
    const n = i + 1;
    const status = step.exchange.response?.status;
    const said = status === undefined ? 'no response' : `HTTP ${status}`;
    lines.push(
      '',
      `# ${n}. ${comment(step.note)}`,
      `#    (the run got ${said})`,
      curlLine(step, input.baseUrl),
      `echo "step ${n}: HTTP $code (expected ${plain(step.expected)})"`,
      'cat "$out"; echo',
    );
    if (step.captureId !== undefined) {
      lines.push(`${step.captureId}=$(${CAPTURE_ID} "$out" | head -n 1)`);
      const other = step.idOtherThan;
      if (other !== undefined) {
        const id = typeof other.id === 'string' ? `$${other.id}` : String(other.id);
        lines.push(
          `echo "step ${n}: id \${${step.captureId}:-none} (expected an id other than ${id}, the id of ${plain(other.what)})"`,
        );
      }
    }
  });
  return `${lines.join('\n')}\n`;
}
