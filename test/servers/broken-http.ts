// Servers broken in a way only the 'http' method catches (test/contract-ablation.test.ts proves it):
// each departs from what HTTP and the RFCs the document cites require, or sends a header the document
// ties to one operation or status where it says something false.
import type { MethodBrokenServer } from './method-broken.js';
import { createReference, type RawRequest, type RawResponse, type ReferenceOptions } from './reference.js';

/** The reference, with every response passed through `change`. */
const wrapped =
  (change: (response: RawResponse, request: RawRequest) => void) =>
  (_clock?: unknown, options: ReferenceOptions = {}) => {
    const reference = createReference(options);
    return (request: RawRequest) => {
      const response = reference(request);
      change(response, request);
      return response;
    };
  };

export const BROKEN_HTTP_SERVERS: readonly MethodBrokenServer[] = [
  {
    name: 'date-iso-8601',
    breaks: 'Date in ISO 8601 (2030-01-01T12:00:00.000Z), not the IMF-fixdate RFC 9110 §5.6.7 requires',
    method: 'http',
    handler: wrapped((response) => {
      const date = response.headers.date;
      if (date !== undefined) response.headers.date = new Date(date).toISOString();
    }),
    fails: ['http_semantics'],
  },
  {
    name: 'deprecation-headers-everywhere',
    breaks:
      "getPet's Sunset, Deprecation and successor Link on listPets and createPet too, which are not deprecated",
    method: 'http',
    handler: wrapped((response, request) => {
      if (request.pathname === '/v1/pets') {
        Object.assign(response.headers, {
          sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
          deprecation: '@1735689600',
          link: '</v1/pets>; rel="successor-version"',
        });
      }
    }),
    fails: ['http_semantics'],
  },
  {
    name: 'location-on-errors',
    breaks: 'a Location to the collection on every 4xx, as if something had been created',
    method: 'http',
    handler: wrapped((response) => {
      if (response.status >= 400 && response.status < 500) response.headers.location = '/v1/pets';
    }),
    fails: ['http_semantics'],
  },
  {
    name: '405-without-allow',
    breaks: 'a 405 with no Allow header (RFC 9110 §15.5.6: MUST)',
    method: 'http',
    handler: wrapped((response) => {
      if (response.status === 405) delete response.headers.allow;
    }),
    fails: ['http_semantics'],
  },
];
