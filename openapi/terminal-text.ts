// What a terminal must not be sent as it is, written as visible escapes: the one set `petkit mock`'s and
// `petkit proxy`'s printed messages (cli/output.ts), the proxy's journal (proxy/terminal-json.ts) and
// the contract suite's reports (contract-tests/reporters/printable.ts) leave out. Here because all
// three stand on openapi/ (the proxy may not import cli/, nor the suite the proxy). One set, so that
// a character the suite shows escaped is not put to a terminal as it is by the mock or the proxy.

/**
 * What a terminal acts on, or a reader cannot see: the C0 controls (tab, line feed and carriage return
 * included: no printed field spans lines), DEL, the C1 controls (U+0080 to U+009F, which some
 * terminals take for ESC sequences: U+009B is a CSI), a surrogate with no partner, the bidirectional
 * controls (they reorder what is shown: CVE-2021-42574), the line and paragraph separators, and the
 * characters that take no width and join nothing: the byte-order mark U+FEFF (before a JSON body, it
 * is why the body is not JSON, and would be shown as nothing), the zero-width space U+200B, the word
 * joiner and invisible operators U+2060 to U+2064. The joiners U+200C and U+200D are left: emoji and
 * scripts are made of them.
 */
const UNSAFE = /[\p{Cc}\p{Cs}\p{Bidi_Control}\p{Zl}\p{Zp}\u200B\u2060-\u2064\uFEFF]/gu;

/** `text` with each character of UNSAFE as its `\uXXXX` escape (ESC as `\u001b`: as JSON would write it). */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
