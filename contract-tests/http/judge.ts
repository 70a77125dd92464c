// The 'http' method's judge: every response of the run, whichever part sent it, through rules.ts.
import type { Spec } from '../../openapi/index.js';
import type { JudgeEntry, Observed } from '../model/types.js';
import { type HttpView, judgeHttp } from './rules.js';

/** What the suite shows of a body in place of the key (redaction.ts): such a body's length is not the one received. */
const REDACTED = /API_KEY/;

/** The response of one exchange as rules.ts reads it. */
export function httpView(spec: Spec, baseUrl: string, observed: Observed): HttpView | undefined {
  const { exchange, response, operation } = observed;
  if (response === undefined || exchange.response === null) return undefined;
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const pathname = new URL(exchange.request.url).pathname;
  const under = pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
  const path = under === undefined ? undefined : spec.matchPath(under)?.path;
  const body = exchange.response.body;
  return {
    method: exchange.request.method.toUpperCase(),
    operation:
      operation === undefined
        ? undefined
        : {
            id: operation.id,
            deprecated: operation.deprecated,
            pointer: `/paths/${operation.path.replaceAll('/', '~1')}/${operation.method.toLowerCase()}`,
          },
    pathMethods: path === undefined ? undefined : [...path.operations.keys()],
    status: response.status,
    headers: response.headers,
    // The body was read as UTF-8 and may have had the key hidden: its bytes are known only when neither changed it.
    bodyBytes: REDACTED.test(body) || body.includes('\uFFFD') ? undefined : Buffer.byteLength(body, 'utf8'),
    ...(exchange.response.notUtf8 === true ? { notUtf8: true } : {}),
    ...(exchange.response.duplicateName === undefined
      ? {}
      : { duplicateName: exchange.response.duplicateName }),
    ...(operation === undefined
      ? {}
      : {
          documentedHeaders: (operation.response(response.status)?.headers ?? []).map((header) =>
            header.name.toLowerCase(),
          ),
        }),
  };
}

export function createHttpJudge(spec: Spec, baseUrl: string): JudgeEntry {
  return {
    id: 'http',
    method: 'http',
    judge(observed) {
      const view = httpView(spec, baseUrl, observed);
      return view === undefined ? [] : judgeHttp(view);
    },
  };
}
