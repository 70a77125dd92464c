// `GET /__petkit/`: a small page that drives the mock from a browser tab, with no build for the user
// and nothing fetched from outside (one HTML string, its CSS and script inline). It shows the
// journal live (`events`, Server-Sent Events), each key's windows (`limits`, read again after each
// request and each clock change, never polled), the armed rules with on/off, a form to arm one, a
// reset with a seed, and the clock. Everything a request put in the journal (paths, codes) reaches
// the document through textContent only, and the Content-Security-Policy lets only this page's own
// script run, with a nonce per answer: a journaled `/v1/<img src=x onerror=…>` stays text.
import type { Spec } from '../openapi/index.js';
import { PAGE_SCRIPT, PAGE_STYLE } from './control-page-assets.js';
import { isDemoKey } from './key-label.js';
import type { ResolvedKey } from './keys.js';
import type { Reply } from './responses.js';

/** What the page needs to know of the mock that no control route answers: its form's choices. */
export interface PageData {
  readonly operations: readonly {
    readonly id: string;
    readonly method: string;
    readonly path: string;
    /** The error statuses the operation documents: what a rule may answer with. */
    readonly statuses: readonly number[];
  }[];
  /** Keys a rule may name from the page: the demo keys (a private key is armed with curl, not shown). */
  readonly keys: readonly string[];
}

export function pageDataOf(spec: Spec, keys: readonly ResolvedKey[]): PageData {
  return {
    operations: spec.operations.map((operation) => ({
      id: operation.id,
      method: operation.method,
      path: spec.basePath + operation.path,
      statuses: [...operation.responses.keys()]
        .filter((status) => /^[45]\d\d$/.test(status))
        .map(Number)
        .sort((a, b) => a - b),
    })),
    keys: keys.filter((key) => isDemoKey(key.key)).map((key) => key.key),
  };
}

/** A fresh nonce per answer: the only script and style the browser runs are the ones it carries. */
function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The CSP: this page's own inline script and style, calls to the mock's origin only, no frames, no forms posted. */
export function pagePolicy(nonceValue: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonceValue}'`,
    `style-src 'nonce-${nonceValue}'`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The page, its data embedded as JSON that no `<` can end early. */
export function answerPage(data: PageData): Reply {
  const value = nonce();
  const json = JSON.stringify(data).replaceAll('<', '\\u003c');
  const body = PAGE.replaceAll('__NONCE__', value).replace('__DATA__', () => json);
  return {
    status: 200,
    body,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': pagePolicy(value),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  };
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petkit mock</title>
<style nonce="__NONCE__">${PAGE_STYLE}</style>
</head>
<body>
<header>
  <h1>petkit mock</h1>
  <span id="clock-now">…</span> <span id="clock-state"></span>
  <button type="button" id="clock-minute">+1 min</button>
  <button type="button" id="clock-next-window">Next window</button>
  <button type="button" id="clock-ban-end" disabled>Ban's end</button>
  <button type="button" id="clock-freeze">Freeze</button>
  <form id="reset"><label>seed<input id="reset-seed" type="number" min="0" placeholder="as started"></label><button type="submit">Reset</button></form>
  <span id="message" role="status"></span>
</header>
<div class="grid">
<section>
  <h2>Rules</h2>
  <form id="arm">
    <label>operation<select id="arm-operation"></select></label>
    <label>key<select id="arm-key"></select></label>
    <label>answer<select id="arm-respond"></select></label>
    <label>delay ms<input id="arm-delay" type="number" min="0" max="60000"></label>
    <label>times<input id="arm-times" type="number" min="1"></label>
    <button type="submit">Arm</button>
  </form>
  <table><thead><tr><th>id</th><th>matches</th><th>answers</th><th>fired / matched</th><th>on</th><th></th></tr></thead><tbody id="rule-rows"></tbody></table>
</section>
<section>
  <h2>Windows</h2>
  <table><thead><tr><th>key</th><th>plan</th><th>minute</th><th>resets</th><th>day</th><th>banned until</th></tr></thead><tbody id="window-rows"></tbody></table>
</section>
</div>
<section>
  <h2>Journal <span id="live">connecting…</span></h2>
  <table><thead><tr><th>id</th><th>time</th><th>method</th><th>path</th><th>status</th><th>code</th><th>rule</th><th>fault</th><th>key</th></tr></thead><tbody id="journal-rows"></tbody></table>
</section>
<script type="application/json" id="petkit-data">__DATA__</script>
<script nonce="__NONCE__">${PAGE_SCRIPT}</script>
</body>
</html>
`;
