// Which Error `code` the document gives which fault, read from the document itself: a code belongs to
// the statuses whose responses name it (in words, in a decision, or as their example's code) and to the
// status the API description writes beside it (`request_timeout` (408)); a code named for no status is
// not judged. And the two codes of an invalid body, which the document tells apart in words: not JSON
// at all, or empty, is `malformed_json`; JSON off the NewPet schema is `validation_failed`.
import { documentedErrorCodes, escapeToken, pointerOfRef, type Spec, valueAt } from '../../openapi/index.js';
import type { Because } from './types.js';

interface Tie {
  readonly statuses: ReadonlySet<number>;
  readonly because: readonly Because[];
}

export interface ErrorCodes {
  /** Why `code` does not fit `status`, when the document gives it to other statuses only. */
  misfit(code: string, status: number): Tie | undefined;
  /** The codes the document gives to `status`. */
  codesOf(status: number): readonly string[];
  /** Whether the document lists the code (one it does not is response_schema_conformance's alone). */
  listed(code: string): boolean;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function readErrorCodes(spec: Spec): ErrorCodes {
  const listed = documentedErrorCodes(spec) ?? new Set<string>();
  const ties = new Map<string, { statuses: Set<number>; because: Because[] }>();
  const tie = (code: string, status: number, because: Because) => {
    if (!listed.has(code)) return;
    let entry = ties.get(code);
    if (entry === undefined) {
      entry = { statuses: new Set(), because: [] };
      ties.set(code, entry);
    }
    if (!entry.statuses.has(status) && entry.because.length < 3) entry.because.push(because);
    entry.statuses.add(status);
  };
  const named = (text: unknown) =>
    typeof text === 'string' ? [...listed].filter((code) => new RegExp(`\\b${code}\\b`).test(text)) : [];
  const sentence = (text: unknown) => (typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '');

  for (const operation of spec.operations) {
    const at = `/paths/${escapeToken(operation.path)}/${operation.method.toLowerCase()}`;
    if (!HTTP_METHODS.includes(operation.method.toLowerCase())) continue;
    for (const key of operation.responses.keys()) {
      const status = Number(key);
      if (!Number.isInteger(status) || status < 400) continue;
      let pointer = `${at}/responses/${key}`;
      let node = valueAt(spec.document, pointer) as Record<string, unknown> | undefined;
      const ref = node?.$ref;
      if (typeof ref === 'string') {
        pointer = pointerOfRef(ref);
        node = valueAt(spec.document, pointer) as Record<string, unknown> | undefined;
      }
      if (node === undefined) continue;
      for (const field of ['description', 'x-petkit-decision'] as const)
        for (const code of named(node[field]))
          tie(code, status, {
            kind: 'document',
            pointer: `#${pointer}/${field}`,
            sentence: sentence(node[field]),
          });
      const example = (node.content as Record<string, { example?: { code?: unknown } }> | undefined)?.[
        'application/json'
      ]?.example;
      if (typeof example?.code === 'string')
        tie(example.code, status, {
          kind: 'document',
          pointer: `#${pointer}/content/application~1json/example/code`,
          sentence: `the ${status}'s example has code ${example.code}`,
        });
    }
  }
  // "`request_timeout` (408)": the API description's own pairs.
  const description = String(spec.document.info.description ?? '');
  for (const match of description.matchAll(/`([a-z0-9_]+)` \((\d{3})/g))
    tie(match[1] ?? '', Number(match[2]), {
      kind: 'document',
      pointer: '#/info/description',
      sentence: `the API description writes \`${match[1]}\` (${match[2]})`,
    });

  return {
    listed: (code) => listed.has(code),
    codesOf: (status) => [...ties].filter(([, entry]) => entry.statuses.has(status)).map(([code]) => code),
    misfit(code, status) {
      const entry = ties.get(code);
      return entry === undefined || entry.statuses.has(status) ? undefined : entry;
    },
  };
}

/** The code an invalid body's 400 carries, by what is wrong with it (InvalidBody), and why. */
export function invalidBodyCode(
  spec: Spec,
  what: string,
): { readonly code: string; readonly because: readonly Because[] } {
  const pointer = '/components/responses/InvalidBody';
  const says = (field: string): Because => ({
    kind: 'document',
    pointer: `#${pointer}/${field}`,
    sentence: String(valueAt(spec.document, `${pointer}/${field}`) ?? '')
      .replace(/\s+/g, ' ')
      .trim(),
  });
  return what === 'a body off its schema'
    ? { code: 'validation_failed', because: [says('description')] }
    : { code: 'malformed_json', because: [says('x-petkit-decision'), says('description')] };
}
