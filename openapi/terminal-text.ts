// What a terminal acts on or reorders by, written as visible escapes: the one set `petkit mock`'s and
// `petkit proxy`'s printed messages (cli/output.ts) and the proxy's journal (proxy/terminal-json.ts)
// leave out. Here because both stand on openapi/ and the proxy may not import cli/.

/** C0 controls, DEL, C1 controls (U+009B is a CSI), the line and paragraph separators, bidi overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each character of UNSAFE as its `\uXXXX` escape (as JSON would write it). */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
