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
];
