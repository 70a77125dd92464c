// JSON Pointer (RFC 6901): the one place petkit escapes a token, reads a `$ref`'s pointer and follows
// a pointer into a value.

/** A member name as a pointer token: `~` as `~0`, `/` as `~1`. */
export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The pointer of a local `$ref` (`#/components/schemas/Pet`): its URI fragment, percent-decoded (§6). */
export function pointerOfRef(ref: string): string {
  if (!ref.startsWith('#')) throw new Error(`Only local $refs are supported, got "${ref}".`);
  return decodeURIComponent(ref.slice(1));
}

/** What a pointer points at in a value; undefined when nothing is there. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node = root;
  for (const token of pointer.slice(1).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[unescapeToken(token)];
  }
  return node;
}
