// What HTTP (RFC 9110) and the RFCs the document cites (6750, 8594, 9745, 8288) require of an origin
// server's response, held on every response: `http_semantics` for their MUSTs, `http_advisories` for
// their SHOULDs. And every header the document ties to one operation or status, checked both ways:
// present where it is required, absent where it would say something false (a deprecation on an
// operation the document does not deprecate, a Location on anything but a 201).
import { ACCEPT_ENCODING } from '../exchange.js';
import { hasBearerChallenge, parseImfFixdate, parseLinks, parseSfDate } from './grammar.js';

/** One response as these rules read it. */
export interface HttpView {
  /** The request's method, upper case. */
  readonly method: string;
  /** The document's operation; undefined off the document (a path or method it lacks). */
  readonly operation:
    | { readonly id: string; readonly deprecated: boolean; readonly pointer: string }
    | undefined;
  /** The methods the document gives the request's path (upper case); undefined when the path is not the document's. */
  readonly pathMethods: readonly string[] | undefined;
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's length in bytes as received; undefined when unknown (decoded, redacted, cut). */
  readonly bodyBytes: number | undefined;
  /** The body's bytes are not UTF-8. */
  readonly notUtf8?: boolean;
  /** The body is JSON with an object that names a member twice: the first such. */
  readonly duplicateName?: { readonly pointer: string; readonly name: string };
  /**
   * The headers the document declares on this response (lower case): a missing one is
   * response_headers_conformance's finding, not this layer's too. Undefined off the document.
   */
  readonly documentedHeaders?: readonly string[];
}

export type HttpCheck = 'http_semantics' | 'http_advisories';

export type HttpBecause =
  | { readonly kind: 'document'; readonly pointer: string; readonly sentence: string }
  | { readonly kind: 'rfc'; readonly cite: string; readonly sentence: string };

export interface HttpJudgement {
  readonly check: HttpCheck;
  /** Absent: a pass. */
  readonly cause?: string;
  readonly severity?: 'error' | 'warning';
  readonly message?: string;
  readonly expected?: string;
  readonly instancePath?: string;
  readonly because?: readonly HttpBecause[];
  readonly case?: string;
}

const rfc = (cite: string, sentence: string): HttpBecause => ({ kind: 'rfc', cite, sentence });
const UNIQUE_NAMES = rfc(
  'RFC 8259 §4',
  'The names within an object SHOULD be unique. … When the names within an object are not unique, the behavior of software that receives such an object is unpredictable.',
);

const ALLOW = rfc(
  'RFC 9110 §15.5.6',
  "The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource's currently supported methods.",
);
const CHALLENGE = rfc(
  'RFC 9110 §15.5.2',
  'The server generating a 401 response MUST send a WWW-Authenticate header field (Section 11.6.1) containing at least one challenge applicable to the target resource.',
);
const BEARER = rfc(
  'RFC 6750 §3',
  'All challenges defined by this specification MUST use the auth-scheme value "Bearer".',
);
const FIXDATE = rfc(
  'RFC 9110 §5.6.7',
  'When a sender generates a header field that contains one or more timestamps defined as HTTP-date, the sender MUST generate those timestamps in the IMF-fixdate format.',
);
const DATE = rfc(
  'RFC 9110 §6.6.1',
  'An origin server with a clock (as defined in Section 5.6.7) MUST generate a Date header field in all 2xx (Successful), 3xx (Redirection), and 4xx (Client Error) responses.',
);
const LENGTH = rfc(
  'RFC 9110 §8.6',
  'a Content-Length header field can provide the anticipated size, as a decimal number of octets, for potential content.',
);
const SUNSET = rfc(
  'RFC 8594 §3',
  'The Sunset value is an HTTP-date timestamp, as defined in Section 7.1.1.1 of [RFC7231].',
);
const DEPRECATION = rfc(
  'RFC 9745 §2.1',
  'The Deprecation response header field is an Item Structured Header Field; its value MUST be a Date as defined in Section 3.3.7 of [RFC9651].',
);
const DEPRECATION_MEANS = rfc(
  'RFC 9745 §2',
  'The Deprecation HTTP response header field allows a server to communicate to a client that the resource in context of the message is or will be deprecated.',
);
const LINK = rfc(
  'RFC 8288 §3',
  'Link = #link-value; link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )',
);
const LOCATION = rfc(
  'RFC 9110 §10.2.2',
  'For 201 (Created) responses, the Location value refers to the primary resource created by the request. For 3xx (Redirection) responses, the Location value refers to the preferred target resource for automatically redirecting the request.',
);
const RETRY_AFTER = rfc(
  'RFC 9110 §10.2.3',
  'Servers send the "Retry-After" header field to indicate how long the user agent ought to wait before making a follow-up request.',
);
const JSON_UTF8 = rfc(
  'RFC 8259 §8.1',
  'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].',
);
const CHARSET = rfc(
  'RFC 9110 §8.3.2',
  'HTTP uses "charset" names to indicate or negotiate the character encoding scheme ([RFC6365], Section 2) of a textual representation.',
);
const CONTENT_TYPE = rfc(
  'RFC 9110 §8.3',
  'A sender that generates a message containing content SHOULD generate a Content-Type header field in that message.',
);
const CODING = rfc(
  'RFC 9110 §12.5.3',
  'If a non-empty Accept-Encoding header field is present in a request and none of the available content codings for the representation are listed as acceptable, the origin server SHOULD send a response without any content coding unless the identity coding is indicated as unacceptable.',
);
/**
 * The content codings every request of the suite accepts (ACCEPT_ENCODING), with x-gzip, which a
 * recipient takes for gzip (RFC 9110 §8.4.1.3), and identity, which is no coding.
 */
const ACCEPTED_CODINGS = new Set([
  ...ACCEPT_ENCODING.split(',').map((coding) => coding.trim()),
  'x-gzip',
  'identity',
]);
const GET_PET_DEPRECATED: HttpBecause = {
  kind: 'document',
  pointer: '/paths/~1pets~1{petId}/get',
  sentence:
    'Deprecated: this operation is removed on 5 December 2030. […] Every response of this operation carries `Sunset`, `Deprecation` and a `Link` to the successor. (No other operation is marked deprecated.)',
};
const LOCATION_201: HttpBecause = {
  kind: 'document',
  pointer: '/components/headers/Location',
  sentence:
    'The path of the created animal. (Declared on createPet\'s 201 only: "A 201 points at the created animal.")',
};

type Finding = Omit<HttpJudgement, 'check'>;

/** The MUSTs: each a finding, or nothing. */
function semantics(view: HttpView): Finding[] {
  const { headers, status } = view;
  const found: Finding[] = [];
  if (status === 405) {
    const allow = headers.allow;
    if (allow === undefined) {
      found.push({
        cause: '405 without Allow',
        message: `the 405 to ${view.method} has no Allow header`,
        expected: 'Allow: the methods the resource supports',
        instancePath: '/headers/Allow',
        because: [ALLOW],
      });
    } else if (view.pathMethods !== undefined) {
      const listed = new Set(allow.split(',').map((m) => m.trim().toUpperCase()));
      const missing = view.pathMethods.filter((m) => !listed.has(m));
      if (missing.length > 0) {
        found.push({
          cause: '405 whose Allow leaves out a documented method',
          message: `the 405 to ${view.method} has Allow: ${allow}, without ${missing.join(', ')}`,
          expected: `Allow listing ${view.pathMethods.join(', ')} (the document's methods for this path)`,
          instancePath: '/headers/Allow',
          because: [ALLOW],
        });
      }
    }
  }
  if (status === 401) {
    const challenge = headers['www-authenticate'];
    if (challenge === undefined && challengeDocumented(view)) {
      // The document requires it on this 401: response_headers_conformance reports it missing.
    } else if (challenge === undefined) {
      found.push({
        cause: '401 without WWW-Authenticate',
        message: 'the 401 has no WWW-Authenticate header',
        expected: 'WWW-Authenticate: Bearer …',
        instancePath: '/headers/WWW-Authenticate',
        because: [CHALLENGE, BEARER],
      });
    } else if (!hasBearerChallenge(challenge)) {
      found.push({
        cause: '401 without a Bearer challenge',
        message: `the 401 challenges with WWW-Authenticate: ${challenge}`,
        expected: 'a Bearer challenge',
        instancePath: '/headers/WWW-Authenticate',
        because: [CHALLENGE, BEARER],
      });
    }
  }
  const date = headers.date;
  if (date !== undefined && parseImfFixdate(date) === undefined) {
    found.push({
      cause: 'Date not an IMF-fixdate',
      message: `Date: ${date}`,
      expected: 'an IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT',
      instancePath: '/headers/Date',
      because: [FIXDATE],
    });
  }
  const length = headers['content-length'];
  if (
    length !== undefined &&
    headers['content-encoding'] === undefined &&
    view.method !== 'HEAD' &&
    view.bodyBytes !== undefined
  ) {
    if (!/^\d+$/.test(length) || Number(length) !== view.bodyBytes) {
      found.push({
        cause: 'Content-Length not the length of the content',
        message: `Content-Length: ${length}, with ${view.bodyBytes} bytes of content`,
        expected: `Content-Length: ${view.bodyBytes}`,
        instancePath: '/headers/Content-Length',
        because: [LENGTH],
      });
    }
  }
  // application/json or a +json type: whatever its charset parameter says (RFC 8259 defines none).
  const contentType = headers['content-type'];
  if (view.notUtf8 === true && contentType !== undefined && isJsonType(contentType)) {
    found.push({
      cause: 'JSON body not UTF-8',
      message: `the ${status}'s body (Content-Type: ${contentType}) is not UTF-8: shown with U+FFFD in place of each byte that is not`,
      expected: 'a JSON body encoded in UTF-8',
      instancePath: '/headers/Content-Type',
      because: [JSON_UTF8],
    });
  }
  const sunset = headers.sunset;
  if (sunset !== undefined && parseImfFixdate(sunset) === undefined) {
    found.push({
      cause: 'Sunset not an HTTP-date',
      message: `Sunset: ${sunset}`,
      expected: 'an IMF-fixdate',
      instancePath: '/headers/Sunset',
      because: [SUNSET, FIXDATE],
    });
  }
  const deprecation = headers.deprecation;
  if (deprecation !== undefined && parseSfDate(deprecation) === undefined) {
    found.push({
      cause: 'Deprecation not a structured Date',
      message: `Deprecation: ${deprecation}`,
      expected: 'Deprecation: @<Unix seconds>',
      instancePath: '/headers/Deprecation',
      because: [DEPRECATION],
    });
  }
  const link = headers.link;
  const links = link === undefined ? undefined : parseLinks(link);
  if (link !== undefined && links === undefined) {
    found.push({
      cause: 'Link does not parse',
      message: `Link: ${link}`,
      expected: 'Link: <URI>; rel="…"',
      instancePath: '/headers/Link',
      because: [LINK],
    });
  }
  // Absent where it would say something false: a deprecation or successor on an operation the document does not deprecate.
  if (view.operation !== undefined && !view.operation.deprecated) {
    const successor = links?.some((l) => l.rels.includes('successor-version')) === true;
    const claims = [
      sunset === undefined ? '' : 'Sunset',
      deprecation === undefined ? '' : 'Deprecation',
      successor ? 'Link rel=successor-version' : '',
    ].filter((c) => c !== '');
    if (claims.length > 0) {
      found.push({
        cause: 'deprecation signalled on an operation that is not deprecated',
        message: `${view.operation.id}, which the document does not deprecate, answers with ${claims.join(', ')}`,
        expected: 'no Sunset, Deprecation or successor Link',
        instancePath: `/headers/${claims[0]?.split(' ')[0]}`,
        because: [GET_PET_DEPRECATED, DEPRECATION_MEANS],
      });
    }
  }
  if (headers.location !== undefined && status !== 201 && (status < 300 || status > 399)) {
    found.push({
      cause: 'Location on a response that created nothing',
      message: `the ${status} has Location: ${headers.location}`,
      expected: 'Location only on a 201 (or a redirect)',
      instancePath: '/headers/Location',
      because: [LOCATION_201, LOCATION],
    });
  }
  return found;
}

/** The SHOULDs: each a warning. */
function advisories(view: HttpView): Finding[] {
  const { headers, status } = view;
  const found: Finding[] = [];
  if (headers.date === undefined && status >= 200 && status < 500) {
    found.push({
      cause: 'no Date',
      message: `the ${status} has no Date header`,
      expected: 'Date: an IMF-fixdate',
      instancePath: '/headers/Date',
      because: [DATE],
    });
  }
  if (
    headers['retry-after'] !== undefined &&
    status !== 429 &&
    status !== 503 &&
    (status < 300 || status > 399)
  ) {
    found.push({
      cause: 'Retry-After outside 429, 503 and 3xx',
      message: `the ${status} has Retry-After: ${headers['retry-after']}`,
      expected: 'Retry-After only where a client is asked to wait',
      instancePath: '/headers/Retry-After',
      because: [RETRY_AFTER],
    });
  }
  // Node's fetch decodes br and zstd too, so the suite reads such a body; a client that sent the same
  // Accept-Encoding and decodes only what it listed does not.
  const coding = headers['content-encoding'];
  const unasked = coding
    ?.split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && !ACCEPTED_CODINGS.has(name));
  if (coding !== undefined && unasked !== undefined && unasked.length > 0) {
    found.push({
      cause: 'a content coding the request did not accept',
      message: `the ${status} has Content-Encoding: ${coding}; the request accepted ${ACCEPT_ENCODING}`,
      expected: `Content-Encoding: one of ${ACCEPT_ENCODING}, or none`,
      instancePath: '/headers/Content-Encoding',
      because: [CODING],
    });
  }
  // JSON is UTF-8 whatever the label (RFC 8259 §11 defines no charset for it); but a client that
  // decodes by the label (Python's requests: response.json() and .text) reads every character past
  // ASCII wrong. A body that is not UTF-8 is http_semantics' error already.
  const labelled = headers['content-type'];
  const charset = labelled === undefined || !isJsonType(labelled) ? undefined : charsetOf(labelled);
  if (
    charset !== undefined &&
    !/^utf-?8$/i.test(charset) &&
    view.notUtf8 !== true &&
    view.bodyBytes !== 0 &&
    view.method !== 'HEAD'
  ) {
    found.push({
      cause: 'JSON labelled with a charset other than UTF-8',
      message: `the ${status} labels its JSON body charset=${charset}`,
      expected: 'no charset (RFC 8259 §11 defines none for application/json), or charset=utf-8',
      instancePath: '/headers/Content-Type',
      because: [JSON_UTF8, CHARSET],
    });
  }
  const twice = view.duplicateName;
  if (twice !== undefined) {
    const where = twice.pointer === '' ? 'its body' : `the object at ${twice.pointer}`;
    found.push({
      cause: 'a JSON object that names a member twice',
      message: `the ${status}'s JSON names "${twice.name}" twice in ${where}: JSON.parse and Python keep the last value, other parsers the first or refuse it`,
      expected: 'each member name once in an object',
      instancePath: `/body${twice.pointer}`,
      because: [UNIQUE_NAMES],
    });
  }
  if ((view.bodyBytes ?? 0) > 0 && headers['content-type'] === undefined && view.method !== 'HEAD') {
    found.push({
      cause: 'content without Content-Type',
      message: `the ${status} has content and no Content-Type`,
      expected: 'a Content-Type',
      instancePath: '/headers/Content-Type',
      because: [CONTENT_TYPE],
    });
  }
  return found;
}

/** `application/json` or a `+json` media type, with any parameters. */
const isJsonType = (contentType: string) =>
  /^application\/(?:[\w.!#$%&'*^`|~-]+\+)?json\s*(?:;|$)/i.test(contentType.trim());

/** A media type's charset parameter (its name in any case, its value unquoted), if it has one. */
function charsetOf(contentType: string): string | undefined {
  for (const parameter of contentType.split(';').slice(1)) {
    const match = /^\s*charset\s*=\s*(?:"([^"]*)"|([^\s;]*))\s*$/i.exec(parameter);
    if (match !== null) return match[1] ?? match[2];
  }
  return undefined;
}

/** A 401 whose challenge the document declares: its absence is the document's finding. */
const challengeDocumented = (view: HttpView) => view.documentedHeaders?.includes('www-authenticate') === true;

/**
 * Every HTTP judgement of one response: each check's findings, or one pass of it. A response judged
 * only by a rule whose fault another check owns (a 401 without the WWW-Authenticate the document
 * declares on it) is inconclusive for http_semantics: no pass, no finding.
 */
export function judgeHttp(view: HttpView): HttpJudgement[] {
  const at = `${view.method} ${view.status}`;
  const of = (check: HttpCheck, findings: Finding[], severity: 'error' | 'warning'): HttpJudgement[] =>
    findings.length === 0 ? [{ check }] : findings.map((f) => ({ check, severity, case: at, ...f }));
  const mustFindings = semantics(view);
  const inconclusive =
    mustFindings.length === 0 &&
    view.status === 401 &&
    view.headers['www-authenticate'] === undefined &&
    challengeDocumented(view);
  return [
    ...(inconclusive ? [] : of('http_semantics', mustFindings, 'error')),
    ...of('http_advisories', advisories(view), 'warning'),
  ];
}
