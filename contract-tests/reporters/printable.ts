// Text for a person's terminal (or a CI page) that may hold what the target sent: a body excerpt, a
// header value quoted in a message, a JSON member name in a path. Every line a reporter prints is one
// line of data, so no character in it may act on the terminal: each one that could is shown as a
// visible escape instead. The json report keeps the data as it came (JSON escapes it there).

/**
 * What a terminal acts on, or a reader cannot see: the C0 controls (tab, line feed and carriage return
 * included: no field of a report spans lines), DEL, the C1 controls (U+0080 to U+009F, which some
 * terminals take for ESC sequences), a surrogate with no partner, the bidirectional controls (they
 * reorder what is shown: CVE-2021-42574), the line and paragraph separators, and the characters that
 * take no width and join nothing: the byte-order mark U+FEFF (before a JSON body, it is why the body is
 * not JSON, and would be shown as nothing), the zero-width space U+200B, the word joiner and invisible
 * operators U+2060 to U+2064. The joiners U+200C and U+200D are left: emoji and scripts are made of them.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Bidi_Control}\p{Zl}\p{Zp}\u200B\u2060-\u2064\uFEFF]/gu;

/** The text with every unprintable character as `\uXXXX` (ESC as `\u001b`): what a JSON string would show. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
