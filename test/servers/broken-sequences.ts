// Servers broken in a way that only a sequence of requests shows: each answer is right for the state
// the server believes in, and the state is wrong only given what came before. The fixed scenarios never
// send the requests in the order that shows it; the stateful sequences (contract-tests/sequences/) do.
import type { FakeClock } from './fake-clock.js';
import type { MethodBrokenServer } from './method-broken.js';
import { createReference, type RawRequest, type ReferenceOptions } from './reference.js';

const isGetPet = (request: RawRequest) =>
  request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(request.pathname);
const isCreate = (request: RawRequest) => request.method === 'POST' && request.pathname === '/v1/pets';
const isList = (request: RawRequest) => request.method === 'GET' && request.pathname === '/v1/pets';

export const BROKEN_SEQUENCES_SERVERS: readonly MethodBrokenServer[] = [
  {
    name: 'negative-cache',
    method: 'sequences',
    breaks: 'getPet remembers a 404: a pet later created with that id stays "not found"',
    handler: (_clock?: FakeClock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      const missing = new Map<string, { status: number; body: string }>();
      return (request) => {
        const response = reference(request);
        if (!isGetPet(request)) return response;
        const remembered = missing.get(request.pathname);
        if (remembered !== undefined && response.status === 200) {
          response.status = remembered.status;
          response.body = remembered.body;
        } else if (response.status === 404) {
          missing.set(request.pathname, { status: response.status, body: response.body });
        }
        return response;
      };
    },
    fails: ['use_after_create'],
  },
  {
    name: 'list-index-one-request-late',
    method: 'sequences',
    breaks:
      'lists read an index that a create updates only once the next other request is answered: a list right after a create lacks the new pet',
    handler: (_clock?: FakeClock, options: ReferenceOptions = {}) => {
      const reference = createReference(options);
      let pending = new Set<number>();
      return (request) => {
        const response = reference(request);
        if (isCreate(request)) {
          if (response.status === 201) pending.add((JSON.parse(response.body) as { id: number }).id);
          return response;
        }
        if (isList(request) && response.status === 200) {
          const unseen = pending;
          response.body = JSON.stringify(
            (JSON.parse(response.body) as { id: number }[]).filter((pet) => !unseen.has(pet.id)),
          );
        }
        pending = new Set();
        return response;
      };
    },
    // getPet has the pet: the list is what is wrong.
    fails: ['list_semantics'],
  },
];
