// Servers broken in a way only the 'model' method catches (test/contract-broken-model.test.ts and the
// ablation test prove it): every exchange is held to the model, whereas the scenarios look at the
// cases they sent for their own purpose.
import type { MethodBrokenServer } from './method-broken.js';
import { createReference, type RawRequest, type RawResponse, type ReferenceOptions } from './reference.js';

export const BROKEN_MODEL_SERVERS: readonly MethodBrokenServer[] = [
  {
    name: 'create-overwrites-a-seeded-pet',
    breaks:
      'createPet gives each new pet the id of a pet present before the run (the last seeded first), replacing it',
    method: 'model',
    handler: (_clock, options: ReferenceOptions = {}) =>
      createReference({ ...options, quirks: { overwriteSeeded: true } }),
    fails: ['use_after_create'],
  },
  {
    name: 'cold-cache-unsorted-list',
    breaks:
      'the first listPets after start answers from a cold cache, newest first (ids descending); later ones are right',
    method: 'model',
    handler: (_clock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      let warm = false;
      return (request: RawRequest): RawResponse => {
        const response = reference(request);
        const list = request.method === 'GET' && request.pathname === '/v1/pets' && response.status === 200;
        if (!list || warm) return response;
        warm = true;
        return { ...response, body: JSON.stringify((JSON.parse(response.body) as unknown[]).reverse()) };
      };
    },
    fails: ['list_semantics'],
  },
  {
    name: 'malformed-json-as-validation-failed',
    breaks:
      'answers a body that is not JSON, or empty, with 400 validation_failed (openapi.yaml: malformed_json), as a framework that reports every refused body alike',
    method: 'model',
    handler: (_clock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      return (request: RawRequest): RawResponse => {
        const response = reference(request);
        if (response.status === 400)
          response.body = response.body.replace('"malformed_json"', '"validation_failed"');
        return response;
      };
    },
    fails: ['error_body_consistency'],
  },
  {
    name: 'refusals-as-validation-failed',
    breaks:
      'the 413 and the 415 carry code validation_failed, which the document gives to its 400s only (their own: payload_too_large, unsupported_media_type)',
    method: 'model',
    handler: (_clock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      return (request: RawRequest): RawResponse => {
        const response = reference(request);
        if (response.status === 413 || response.status === 415)
          response.body = response.body.replace(/"code":"[a-z_]+"/, '"code":"validation_failed"');
        return response;
      };
    },
    fails: ['error_body_consistency'],
  },
  {
    name: 'details-paths-not-pointers',
    breaks:
      "a 400's details name the field as a bare or dotted name (categoryId, limit), as express-validator or Joi do, not the JSON Pointer the document gives (/categoryId)",
    method: 'model',
    handler: (_clock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      return (request: RawRequest): RawResponse => {
        const response = reference(request);
        if (response.status !== 400) return response;
        const body = JSON.parse(response.body) as { details?: { path: string }[] };
        if (body.details === undefined) return response;
        body.details = body.details.map((detail) => ({
          ...detail,
          path: detail.path.replace(/^\//, '').replaceAll('/', '.'),
        }));
        return { ...response, body: JSON.stringify(body) };
      };
    },
    fails: ['error_body_consistency'],
  },
];
