// The catalogue of checks: one stable id each, what it asserts, which operations it concerns.
import type { OperationSpec } from '../openapi/index.js';

/** One entry of the registry: a check is this entry plus the function that judges it (judges.ts). */
export interface CheckEntry<Id extends string = string> {
  readonly id: Id;
  readonly title: string;
  /** A failure of a `warning` check is reported but does not fail the run; an error check's may be a warning. */
  readonly severity: 'error' | 'warning';
  /** Run only when asked for: the flag that asks (`--probe-rate-limit`, `--probe-ban`). */
  readonly optIn: false | string;
  /** The operations this check says something about. */
  appliesTo(operation: OperationSpec): boolean;
}

const every = () => true;
const byId =
  (...ids: string[]) =>
  (operation: OperationSpec) =>
    ids.includes(operation.id);

const info = <const Id extends string>(
  id: Id,
  title: string,
  appliesTo: (operation: OperationSpec) => boolean,
  extra: { severity?: 'error' | 'warning'; optIn?: string } = {},
): CheckEntry<Id> => ({
  id,
  title,
  appliesTo,
  severity: extra.severity ?? 'error',
  optIn: extra.optIn ?? false,
});

/** The registry. The ids, their order in reports and the opt-in list all come from it. */
export const CHECKS = [
  info('not_a_server_error', 'no 5xx anywhere', every),
  info('status_code_conformance', 'every status is documented for its operation', every),
  info('content_type_conformance', 'JSON bodies are application/json', every),
  info('response_schema_conformance', "every body validates against its status's schema", every),
  info('response_headers_conformance', 'documented headers present and valid; X-RateLimit-* sane', every),
  info(
    'error_body_consistency',
    "an Error's status equals the HTTP status; its code and details name the fault as the document does",
    every,
  ),
  info('auth_enforced', '401 + Error without a key, with a wrong key, with a non-Bearer scheme', every),
  info(
    'negative_data_rejection',
    'invalid bodies and parameters are rejected (400, 413, 415)',
    (operation) => {
      return operation.parameters.length > 0 || operation.requestBody !== undefined;
    },
  ),
  info(
    'positive_data_acceptance',
    'valid bodies and parameters are accepted, in every spelling the document admits',
    byId('listPets', 'createPet', 'getPet'),
  ),
  info(
    'list_semantics',
    'a list is the whole list filtered, then cut to limit (default 20); ascending ids, after creates too',
    byId('listPets'),
  ),
  info(
    'use_after_create',
    'created pets come back from getPet and the status filter, unchanged to the end; concurrent creates get distinct ids',
    byId('getPet', 'listPets', 'createPet'),
  ),
  info('not_found', 'an unknown id gives 404 + Error', byId('getPet')),
  info(
    'deprecation_signalled',
    'a deprecated operation carries Sunset, Deprecation and Link as the document requires',
    (operation) => {
      return operation.deprecated;
    },
    { severity: 'warning' },
  ),
  info(
    'rate_limit_behaviour',
    'the window holds what Remaining announced, then a full 429 Error with Retry-After, then recovery at that time',
    byId('listPets'),
    { optIn: '--probe-rate-limit' },
  ),
  info(
    'rate_limit_ban',
    "requests while limited lead to the key's ban: 429 api_key_banned, Retry-After to its end, then recovery",
    byId('listPets'),
    { optIn: '--probe-ban' },
  ),
  info(
    'http_semantics',
    "what RFC 9110, 6750, 8594 and 9745 require of every response (their MUSTs), and RFC 9112 of its framing on the wire (the wire probe's bytes); headers the document ties to one operation or status absent elsewhere",
    every,
  ),
  info('http_advisories', 'what those RFCs recommend of every response (their SHOULDs)', every, {
    severity: 'warning',
  }),
] as const;

export type CheckId = (typeof CHECKS)[number]['id'];
export type CheckInfo = CheckEntry<CheckId>;
export const CHECK_IDS: readonly CheckId[] = CHECKS.map((check) => check.id);

export function isCheckId(value: string): value is CheckId {
  return (CHECK_IDS as readonly string[]).includes(value);
}
