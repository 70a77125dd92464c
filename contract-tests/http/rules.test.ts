import { describe, expect, it } from 'vitest';
import { type HttpView, judgeHttp } from './rules.js';

const DATE = 'Tue, 01 Jan 2030 12:00:30 GMT';
const base: HttpView = {
  method: 'GET',
  operation: { id: 'listPets', deprecated: false, pointer: '/paths/~1pets/get' },
  pathMethods: ['GET', 'POST'],
  status: 200,
  headers: { date: DATE, 'content-type': 'application/json', 'content-length': '2' },
  bodyBytes: 2,
};
const view = (over: Partial<HttpView>, headers: Record<string, string | undefined> = {}): HttpView => {
  const merged = { ...base.headers, ...headers };
  const kept = Object.fromEntries(
    Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return { ...base, ...over, headers: kept };
};
const causes = (v: HttpView) =>
  judgeHttp(v)
    .filter((j) => j.cause !== undefined)
    .map((j) => `${j.check}: ${j.cause}`);

describe('judgeHttp', () => {
  it('passes a response that keeps HTTP: one pass per check', () => {
    expect(judgeHttp(base)).toEqual([{ check: 'http_semantics' }, { check: 'http_advisories' }]);
  });

  it('a 405 needs Allow, listing the documented methods', () => {
    const off = { method: 'DELETE', operation: undefined, status: 405, pathMethods: ['GET'] };
    expect(causes(view(off))).toEqual(['http_semantics: 405 without Allow']);
    expect(causes(view(off, { allow: 'POST' }))).toEqual([
      'http_semantics: 405 whose Allow leaves out a documented method',
    ]);
    expect(causes(view(off, { allow: 'GET, HEAD' }))).toEqual([]);
  });

  it('a 401 without the WWW-Authenticate the document declares on it is inconclusive: response_headers_conformance reports it', () => {
    const documented = { status: 401, documentedHeaders: ['www-authenticate', 'x-ratelimit-limit'] };
    expect(judgeHttp(view(documented))).toEqual([{ check: 'http_advisories' }]);
    // Another fault of the same 401 is still this layer's.
    expect(causes(view(documented, { date: '2030-01-01T12:00:30Z' }))).toEqual([
      'http_semantics: Date not an IMF-fixdate',
    ]);
    // A challenge that is there, but not Bearer, is this layer's to judge.
    expect(causes(view(documented, { 'www-authenticate': 'Basic realm="x"' }))).toEqual([
      'http_semantics: 401 without a Bearer challenge',
    ]);
  });

  it('a 401 needs a Bearer challenge (RFC 9110 §15.5.2, RFC 6750 §3)', () => {
    expect(causes(view({ status: 401 }))).toEqual(['http_semantics: 401 without WWW-Authenticate']);
    expect(causes(view({ status: 401 }, { 'www-authenticate': 'Basic realm="x"' }))).toEqual([
      'http_semantics: 401 without a Bearer challenge',
    ]);
    expect(
      causes(view({ status: 401 }, { 'www-authenticate': 'Basic realm="x", Bearer realm="pets"' })),
    ).toEqual([]);
  });

  it('Date is an IMF-fixdate; a missing Date is advisory', () => {
    expect(causes(view({}, { date: '2030-01-01T12:00:30.000Z' }))).toEqual([
      'http_semantics: Date not an IMF-fixdate',
    ]);
    const missing = judgeHttp(view({}, { date: undefined })).find((j) => j.cause !== undefined);
    expect(missing).toMatchObject({ check: 'http_advisories', severity: 'warning', cause: 'no Date' });
  });

  it('Content-Length is the length of the content, unless encoded or unknown', () => {
    expect(causes(view({ bodyBytes: 3 }))).toEqual([
      'http_semantics: Content-Length not the length of the content',
    ]);
    expect(causes(view({ bodyBytes: 3 }, { 'content-encoding': 'gzip' }))).toEqual([]);
    expect(causes(view({ bodyBytes: undefined }))).toEqual([]);
  });

  it('Sunset, Deprecation and Link follow their grammars where they are sent', () => {
    const getPet = { operation: { id: 'getPet', deprecated: true, pointer: '/paths/~1pets~1{petId}/get' } };
    const good = {
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      deprecation: '@1735689600',
      link: '</v1/pets>; rel="successor-version"',
    };
    expect(causes(view(getPet, good))).toEqual([]);
    expect(causes(view(getPet, { ...good, sunset: '2030-12-05' }))).toEqual([
      'http_semantics: Sunset not an HTTP-date',
    ]);
    expect(causes(view(getPet, { ...good, deprecation: 'true' }))).toEqual([
      'http_semantics: Deprecation not a structured Date',
    ]);
    expect(causes(view(getPet, { ...good, link: '/v1/pets' }))).toEqual([
      'http_semantics: Link does not parse',
    ]);
  });

  it('no deprecation on an operation the document does not deprecate, with the document sentence why', () => {
    const [finding] = judgeHttp(view({}, { deprecation: '@1735689600' })).filter(
      (j) => j.cause !== undefined,
    );
    expect(finding?.cause).toBe('deprecation signalled on an operation that is not deprecated');
    expect(finding?.because?.[0]).toMatchObject({ kind: 'document', pointer: '/paths/~1pets~1{petId}/get' });
    expect(causes(view({}, { link: '</next>; rel="next"' }))).toEqual([]);
    expect(causes(view({}, { link: '</v1/pets>; rel="successor-version"' }))).toHaveLength(1);
  });

  it('Location only on a 201', () => {
    expect(causes(view({ status: 400 }, { location: '/v1/pets/1' }))).toEqual([
      'http_semantics: Location on a response that created nothing',
    ]);
    expect(causes(view({ status: 201, method: 'POST' }, { location: '/v1/pets/1' }))).toEqual([]);
  });

  it('a content coding the request did not accept (it accepts gzip and deflate) is advisory', () => {
    expect(causes(view({ bodyBytes: undefined }, { 'content-encoding': 'br' }))).toEqual([
      'http_advisories: a content coding the request did not accept',
    ]);
    const [finding] = judgeHttp(view({ bodyBytes: undefined }, { 'content-encoding': 'gzip, zstd' })).filter(
      (j) => j.cause !== undefined,
    );
    expect(finding?.message).toBe(
      'the 200 has Content-Encoding: gzip, zstd; the request accepted gzip, deflate',
    );
    for (const coding of ['gzip', 'x-gzip', 'GZIP', 'deflate', 'identity', 'gzip, deflate'])
      expect(causes(view({ bodyBytes: undefined }, { 'content-encoding': coding }))).toEqual([]);
  });

  it('a JSON body labelled with a charset other than UTF-8 is advisory: a client that decodes by the label reads it wrong', () => {
    const [finding] = judgeHttp(view({}, { 'content-type': 'application/json; charset=ISO-8859-1' })).filter(
      (j) => j.cause !== undefined,
    );
    expect(finding).toMatchObject({
      check: 'http_advisories',
      severity: 'warning',
      cause: 'JSON labelled with a charset other than UTF-8',
      message: 'the 200 labels its JSON body charset=ISO-8859-1',
      instancePath: '/headers/Content-Type',
    });
    expect(causes(view({}, { 'content-type': 'application/json;Charset="windows-1252"' }))).toEqual([
      'http_advisories: JSON labelled with a charset other than UTF-8',
    ]);
    // UTF-8 in any spelling, no charset, or no body to read: nothing to say.
    for (const contentType of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8',
      'text/plain; charset=iso-8859-1',
    ])
      expect(causes(view({}, { 'content-type': contentType }))).toEqual([]);
    expect(
      causes(
        view({ bodyBytes: 0 }, { 'content-type': 'application/json; charset=latin1', 'content-length': '0' }),
      ),
    ).toEqual([]);
    // A body that is not UTF-8 is http_semantics' error already, whatever its label.
    expect(
      causes(view({ notUtf8: true }, { 'content-type': 'application/json; charset=iso-8859-1' })),
    ).toEqual(['http_semantics: JSON body not UTF-8']);
  });

  it('Retry-After outside 429/503 and content without Content-Type are advisories', () => {
    expect(causes(view({}, { 'retry-after': '5' }))).toEqual([
      'http_advisories: Retry-After outside 429, 503 and 3xx',
    ]);
    expect(causes(view({ status: 429 }, { 'retry-after': '5' }))).toEqual([]);
    expect(causes(view({}, { 'content-type': undefined }))).toEqual([
      'http_advisories: content without Content-Type',
    ]);
  });
});
