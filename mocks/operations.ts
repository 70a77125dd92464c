// The three operations of openapi.yaml, once routing, auth, limits and validation have passed.
// Each takes the validated input and answers a Reply; none reads the raw request.
import type { NewPet, OperationId, PetStatus } from '../spec/index.js';
import { errorReply, type Reply, reply } from './responses.js';
import type { Store } from './store.js';

export interface OperationInput {
  /** Parameters by name, parsed and validated. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The validated JSON body, for operations that take one. */
  readonly body: unknown;
  readonly basePath: string;
}

export type Implementation = (input: OperationInput, store: Store) => Reply;

export const IMPLEMENTATIONS: Readonly<Record<OperationId, Implementation>> = {
  listPets({ params }, store) {
    return reply(200, store.list(params.limit as number, params.status as PetStatus | undefined));
  },
  createPet({ body, basePath }, store) {
    const created = store.create(body as NewPet);
    if (created === undefined) return errorReply('store_full', `The store is full (${store.size} pets).`);
    return reply(201, created.json, { location: `${basePath}/pets/${created.pet.id}` });
  },
  getPet({ params }, store) {
    const id = params.petId as number;
    const json = store.get(id);
    return json === undefined ? errorReply('not_found', `No pet has id ${id}.`) : reply(200, json);
  },
};
