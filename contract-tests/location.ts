// Where a 201's Location points. The document says `Location: /v1/pets/{id}`: the created pet, on the
// target. Location is a URI reference (RFC 9110 §10.2.2), resolved against the request's URL (RFC 3986
// §5); an absolute one is fine when it names the target's own origin. So a Location must be a URI
// reference, resolve to the target's origin (no user information: RFC 9110 §4.2.4), to a path
// `<base path>/pets/<segment>` with no query; that is its form, response_headers_conformance's. That the
// segment is the created pet's id is use_after_create's.
import type { FindingInput } from './finding.js';
import type { PetId } from './pet-id.js';

export interface LocationFault {
  /** `form`: not the target's place for a pet; `another-pet`: the right place, another pet's id. */
  readonly kind: 'form' | 'another-pet';
  readonly message: string;
  readonly expected: string;
  /** The fault in stable words, without the Location that showed it: what groups its findings. */
  readonly cause: string;
}

/**
 * What redaction.ts writes where a response held the key in a form other than itself
 * (`[API_KEY, upper-cased]`, `[part of API_KEY]`): `$API_KEY` and `${API_KEY}` are URI characters already.
 */
const KEY_MARKER = /\[(?:part of )?API_KEY(?:, [a-z0-9 -]+)?\]/g;
/** RFC 3986 Appendix B: scheme, authority, path, query, fragment of a URI reference. */
const PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;
/** The characters a URI reference may hold (RFC 3986 §2): unreserved, reserved, and `%` escapes. */
const URI_CHAR = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2}/y;

function notUriCharacter(location: string): string | undefined {
  for (let i = 0; i < location.length; ) {
    URI_CHAR.lastIndex = i;
    if (URI_CHAR.test(location)) {
      i = URI_CHAR.lastIndex;
      continue;
    }
    const char = location[i] ?? '';
    const name =
      char === '\\'
        ? 'a backslash'
        : char === ' '
          ? 'a space'
          : char === '%'
            ? 'a % not followed by two hex digits'
            : `${JSON.stringify(char)}`;
    return `${name} at position ${i + 1}`;
  }
  return undefined;
}

/**
 * What is wrong with a 201's Location, or undefined when it names the created pet on the target.
 * `requestUrl` is the createPet request's URL (as sent: a record's may have the key hidden in it),
 * `baseUrl` the target's; `id` the created pet's, when its body said it.
 */
export function locationFault(
  location: string,
  requestUrl: string,
  baseUrl: string,
  id: PetId | undefined,
): LocationFault | undefined {
  const base = new URL(baseUrl);
  const collection = `${base.pathname.replace(/\/+$/, '')}/pets`;
  const own = `${collection}/${id ?? '{id}'}`;
  const expected = `Location: ${own}, or ${base.origin}${own}: the created pet on the target (RFC 9110 §10.2.2)`;
  const form = (cause: string, message: string): LocationFault => ({
    kind: 'form',
    message,
    expected,
    cause,
  });
  const shown = `Location: ${location === '' ? '(empty)' : location}`;
  // Judged on what the target sent: a marker's space and brackets are the suite's, so each stands as
  // characters a URI holds (of its own length, where a position is counted; as API_KEY, where resolved).
  const bad = notUriCharacter(location.replace(KEY_MARKER, (marker) => 'K'.repeat(marker.length)));
  const sent = location.replace(KEY_MARKER, 'API_KEY');
  if (bad !== undefined)
    return form('Location not a URI reference', `${shown} is not a URI reference (RFC 3986): ${bad}`);
  const [, scheme, authority] = PARTS.exec(sent) ?? [];
  // RFC 3986 §5.2.2 (strict): a scheme without an authority keeps no host, whatever the base's.
  if (scheme !== undefined && authority === undefined)
    return form(
      'Location with a scheme and no host',
      `${shown} names the ${scheme.toLowerCase()} scheme without a host: it resolves to no origin`,
    );
  if (authority?.includes('@') === true)
    return form(
      'Location with user information',
      `${shown} carries user information, which an http(s) URI must not (RFC 9110 §4.2.4)`,
    );
  let resolved: URL;
  try {
    resolved = new URL(sent, requestUrl);
  } catch {
    return form(
      'Location that does not resolve',
      `${shown} does not resolve to a URL (its host is malformed)`,
    );
  }
  if (resolved.origin !== base.origin)
    return form(
      'Location on another origin',
      `${shown} names another origin (${resolved.protocol}//${resolved.host}), not the target's (${base.origin})`,
    );
  if (resolved.search !== '')
    return form('Location with a query', `${shown} carries a query: the created pet's path is ${own}`);
  const segment = resolved.pathname.startsWith(`${collection}/`)
    ? resolved.pathname.slice(collection.length + 1)
    : undefined;
  if (segment === undefined || segment === '' || segment.includes('/'))
    return form(
      'Location outside the pets',
      `${shown} resolves to ${resolved.pathname}, not under ${collection}/ where the pets are`,
    );
  if (id !== undefined && segment !== String(id))
    return {
      kind: 'another-pet',
      cause: "Location names another pet's path",
      message: `the 201 for pet ${id} has Location: ${location}`,
      expected: `Location: ${own}, the created pet's own path`,
    };
  return undefined;
}

/** response_headers_conformance's verdict on a 201's Location: where it points, or undefined when it is the target. */
export function locationFinding(
  location: string | undefined,
  requestUrl: string,
  baseUrl: string,
  id: PetId | undefined,
): FindingInput | undefined {
  const fault = location === undefined ? undefined : locationFault(location, requestUrl, baseUrl, id);
  if (fault?.kind !== 'form') return undefined;
  return {
    check: 'response_headers_conformance',
    severity: 'error',
    message: fault.message,
    expected: fault.expected,
    cause: fault.cause,
    instancePath: '/headers/Location',
    schemaPath: '#/components/headers/Location',
  };
}
