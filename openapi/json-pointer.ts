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

/** A pointer's tokens, unescaped: `/a~1b/0` is `a/b` then `0`; `` (the whole value) is none. */
export function tokensOf(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);
}

/** The pointer of these tokens, each escaped. */
export function pointerOf(tokens: readonly string[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join('');
}

/** What a pointer points at in a value; undefined when nothing is there. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of tokensOf(pointer)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
