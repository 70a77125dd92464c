// A text's UTF-8 bytes written into a buffer where they go, with no encoded copy made first: what the
// journal's records and `petkit mock`'s log lines are written with.

const UTF8 = new TextEncoder();

/**
 * Writes `text` as UTF-8 into `into` from `at` (ASCII a character at a time, the rest from its first
 * other character encoded); answers where its bytes end. The caller leaves room for 3 bytes a
 * character: past `into`'s end, bytes are dropped.
 */
export function writeUtf8(text: string, into: Uint8Array, at: number): number {
  let end = at;
  const length = text.length;
  let i = 0;
  for (; i < length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) break;
    into[end] = c;
    end += 1;
  }
  if (i < length) end += UTF8.encodeInto(text.slice(i), into.subarray(end)).written;
  return end;
}
