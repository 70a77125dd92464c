// The journal's JSON as a terminal may show it: `curl http://127.0.0.1:4011/__petkit/departures`
// prints it as it comes, and a departure quotes what the app and the upstream sent. JSON.stringify
// escapes the C0 controls and a lone surrogate but writes DEL, the C1 controls (U+009B is a CSI, as
// ESC [ is), the characters that reorder what follows (bidirectional controls, line and paragraph
// separators) and those a reader cannot see (U+200B, U+FEFF, …) as they are; here each is written as
// its `\uXXXX` escape, which JSON reads back as the same character, so the data is unchanged and a
// terminal shows it as text. The set is openapi/terminal-text.ts's, which cli/output.ts's printable
// and the contract suite's reports use too.

import { terminalText } from '../openapi/terminal-text.js';

/** `value` as JSON text with no character a terminal would act on or reorder by (JSON has escaped its C0 already). */
export function terminalJson(value: unknown): string {
  return terminalText(JSON.stringify(value));
}
