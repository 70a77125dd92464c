// Every Error code the mock answers, in one place: its HTTP status and default message. The codes are
// exactly those listed in openapi.yaml's description; nothing else may invent one.
import { type ApiError, type ErrorDetail, MAX_BODY_BYTES } from '../openapi/index.js';

export const ERRORS = {
  missing_api_key: {
    status: 401,
    message: 'An API key is required: send "Authorization: Bearer <API_KEY>".',
  },
  invalid_api_key: { status: 401, message: 'The API key is not valid.' },
  validation_failed: { status: 400, message: 'The request is not valid.' },
  malformed_json: { status: 400, message: 'The body is not valid JSON.' },
  unsupported_media_type: { status: 415, message: 'The body must be application/json.' },
  payload_too_large: { status: 413, message: `The body is larger than ${MAX_BODY_BYTES} bytes.` },
  not_found: { status: 404, message: 'No pet has this id.' },
  route_not_found: { status: 404, message: 'No such route.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed on this route.' },
  rate_limited: { status: 429, message: 'Rate limit exceeded.' },
  api_key_banned: {
    status: 429,
    message: 'The API key is temporarily banned after too many requests while limited.',
  },
  store_full: { status: 507, message: 'The store is full.' },
  internal_error: { status: 500, message: 'The server failed to answer the request.' },
  // A mock whose state lives in a database (petkit mock --state) while that database is lost.
  state_unavailable: {
    status: 503,
    message: "The mock's shared state (its database) is unavailable; retry shortly.",
  },
  // Answered by the node:http adapter (startServer) when Node's parser refuses a request, before
  // routing: no operation documents these statuses (see node-server.ts, answerClientError).
  request_header_too_large: { status: 431, message: 'The request line and headers are too large.' },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  expectation_failed: { status: 417, message: 'Only "Expect: 100-continue" is supported.' },
  http_version_not_supported: { status: 505, message: 'Only HTTP/1.1 and HTTP/1.0 are served.' },
  // Answered by startServer before the control API (/__petkit/*), never on the API (control-guard.ts).
  host_not_allowed: { status: 403, message: 'The control API answers only requests addressed to this mock.' },
  origin_not_allowed: { status: 403, message: 'The control API refuses calls from pages of another site.' },
  // Answered by the control API's rules and clock (controls.ts), never on the API.
  rule_not_found: { status: 404, message: 'No rule has this id.' },
  too_many_rules: { status: 409, message: 'As many rules as the mock keeps are armed; disarm one first.' },
  clock_refused: { status: 409, message: 'The clock cannot be set to that time.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The Retry-After of a 503 `state_unavailable`, in seconds: a lost database is usually back soon. */
export const STATE_RETRY_AFTER = '1';

/** The code a `Prefer: code=NNN` response carries, per status. */
export const FORCED_CODES: ReadonlyMap<number, ErrorCode> = new Map<number, ErrorCode>([
  [400, 'validation_failed'],
  [401, 'invalid_api_key'],
  [404, 'not_found'],
  [413, 'payload_too_large'],
  [415, 'unsupported_media_type'],
  [429, 'rate_limited'],
  [500, 'internal_error'],
  [503, 'state_unavailable'],
  [507, 'store_full'],
]);

/** The Error body for a code, with the default message unless one is given. */
export function errorBody(code: ErrorCode, message?: string, details?: readonly ErrorDetail[]): ApiError {
  const entry = ERRORS[code];
  const body: ApiError = { code, message: message ?? entry.message, status: entry.status };
  if (details !== undefined && details.length > 0) body.details = [...details];
  return body;
}
