// The journal's JSON as a terminal may show it: `curl http://127.0.0.1:4011/__petkit/departures`
// prints it as it comes, and a departure quotes what the app and the upstream sent. JSON.stringify
// escapes C0 controls but writes DEL, the C1 controls (U+009B is a CSI, as ESC [ is) and the
// characters that reorder what follows (bidirectional overrides and isolates, line and paragraph
// separators) as they are; here each is written as its `\uXXXX` escape, which JSON reads back as the
// same character, so the data is unchanged and a terminal shows it as text. The set is openapi/terminal-text.ts's,
// which cli/output.ts's printable uses too.

import { terminalText } from '../openapi/terminal-text.js';

/** `value` as JSON text with no character a terminal would act on or reorder by (JSON has escaped its C0 already). */
export function terminalJson(value: unknown): string {
  return terminalText(JSON.stringify(value));
}
