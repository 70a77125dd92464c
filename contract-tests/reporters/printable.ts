// Text for a person's terminal (or a CI page) that may hold what the target sent: a body excerpt, a
// header value quoted in a message, a JSON member name in a path. Every line a reporter prints is one
// line of data, so no character in it may act on the terminal: each one that could is shown as a
// visible escape instead. The json report keeps the data as it came (JSON escapes it there). The set
// is openapi/terminal-text.ts's, the one `petkit mock` and `petkit proxy` print by too.

import { terminalText } from '../../openapi/terminal-text.js';

/** The text with every unprintable character as `\uXXXX` (ESC as `\u001b`): what a JSON string would show. */
export function printable(text: string): string {
  return terminalText(text);
}
