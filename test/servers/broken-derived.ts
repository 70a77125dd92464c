// Servers broken in a way only the 'derived' method catches (test/contract-ablation.test.ts proves it):
// each departs on a spelling openapi.yaml decides, which no fixed case of the other methods sends.
import type { MethodBrokenServer } from './method-broken.js';
import { createReference, type RawRequest, REFERENCE_KEY, type ReferenceOptions } from './reference.js';

/** The reference, with each request rewritten by `change` before it reads it. */
const rewriting =
  (change: (request: RawRequest, key: string) => RawRequest) =>
  (_clock?: unknown, options: ReferenceOptions = {}) => {
    const reference = createReference(options);
    return (request: RawRequest) => reference(change(request, options.key ?? REFERENCE_KEY));
  };

export const BROKEN_DERIVED_SERVERS: readonly MethodBrokenServer[] = [
  {
    name: 'lenient-integer-query',
    breaks:
      'reads limit with Number(): 1.0, +1, 1e0 and " 1" pass as 1 (openapi.yaml: a JSON integer, else 400)',
    method: 'derived',
    handler: rewriting((request) => {
      const raw = request.query.get('limit');
      const value = raw === null || raw.trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isInteger(value)) return request;
      const query = new URLSearchParams(request.query);
      query.set('limit', String(value));
      return { ...request, query };
    }),
    fails: ['negative_data_rejection'],
  },
  {
    name: 'key-without-its-last-character',
    breaks: 'accepts the key with its last character cut off, as if it compared all but the last',
    method: 'derived',
    handler: rewriting((request, key) =>
      request.headers.authorization === `Bearer ${key.slice(0, -1)}`
        ? { ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } }
        : request,
    ),
    fails: ['auth_enforced'],
  },
  {
    name: 'integer-body-must-be-integer-text',
    breaks:
      'refuses a categoryId written 3.0 (a whole-valued JSON number, which openapi.yaml makes 3) with 400',
    method: 'derived',
    // The reference reads a categoryId that is not an integer, so it answers the documented 400 (headers and all).
    handler: rewriting((request) =>
      request.method === 'POST' && /"categoryId"\s*:\s*-?\d+[.eE]/.test(request.body)
        ? { ...request, body: request.body.replace(/("categoryId"\s*:\s*)-?\d+[.eE][-+\d.eE]*/, '$1"text"') }
        : request,
    ),
    fails: ['positive_data_acceptance'],
  },
  {
    name: 'echoes-integer-as-written',
    breaks:
      'echoes a categoryId sent as 3.0 as 3.0, as a store that keeps the float it parsed (Python) does (openapi.yaml: echoed as 3)',
    method: 'derived',
    handler: (_clock?: unknown, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      return (request: RawRequest) => {
        const response = reference(request);
        const written =
          request.method === 'POST'
            ? /"categoryId"\s*:\s*(-?\d+[.eE][-+\d.eE]*)/.exec(request.body)?.[1]
            : undefined;
        return written === undefined || response.status !== 201
          ? response
          : { ...response, body: response.body.replace(/("categoryId":)-?\d+/, `$1${written}`) };
      };
    },
    fails: ['positive_data_acceptance'],
  },
  {
    name: 'refuses-percent-encoded-id',
    breaks:
      'answers /pets/%31 (percent-encoded digits, which openapi.yaml makes pet 1) with 400, as if it read the id undecoded',
    method: 'derived',
    handler: rewriting((request) =>
      /^\/v1\/pets\/[^/]*%/.test(request.pathname) ? { ...request, pathname: '/v1/pets/undecoded' } : request,
    ),
    fails: ['positive_data_acceptance'],
  },
  {
    name: 'empty-query-value-is-absent',
    breaks:
      'reads limit= and status= as not given (a value tested for truth): the default page, unfiltered, where openapi.yaml decides an empty value is a 400',
    method: 'derived',
    handler: rewriting((request) => {
      const query = new URLSearchParams(request.query);
      for (const name of ['limit', 'status']) if (query.get(name) === '') query.delete(name);
      return { ...request, query };
    }),
    fails: ['negative_data_rejection'],
  },
  {
    name: 'key-read-to-the-next-space',
    breaks:
      "reads the key up to the next space (split(' ')[1], a pattern not anchored at its end): Bearer KEY x is the key",
    method: 'derived',
    handler: rewriting((request) => {
      const token = /^(\S+) +(\S+) /.exec(request.headers.authorization ?? '');
      return token === null
        ? request
        : { ...request, headers: { ...request.headers, authorization: `${token[1]} ${token[2]}` } };
    }),
    fails: ['auth_enforced'],
  },
];
