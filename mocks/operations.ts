// The three operations of openapi.yaml, once routing, auth, limits and validation have passed.
// Each takes the validated input and answers a Reply; none reads the raw request.
import type { NewPet, OperationId, PetStatus } from '../openapi/index.js';
// Not on petkit/openapi's surface: the body text's reading the request validation does too.
import { sentNumber } from '../openapi/request.js';
import { errorReply, type Reply, reply } from './responses.js';
import { type Awaitable, andThen, type Store } from './state.js';

export interface OperationInput {
  /** Parameters by name, parsed and validated. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Path parameters as sent (before a large int64 is rounded to a double). */
  readonly raw: Readonly<Record<string, string>>;
  /** The validated JSON body, for operations that take one. */
  readonly body: unknown;
  /** The body's text as sent, for quoting a number JSON.parse rounded; empty without a body. */
  readonly bodyText: string;
  readonly basePath: string;
}

/** Answers at once when the store does (the in-memory one), else a promise. */
export type Implementation = (input: OperationInput, store: Store) => Awaitable<Reply>;

export const IMPLEMENTATIONS: Readonly<Record<OperationId, Implementation>> = {
  listPets({ params }, store) {
    return andThen(store.list(params.limit as number, params.status as PetStatus | undefined), (body) =>
      reply(200, body),
    );
  },
  createPet({ body, bodyText, basePath }, store) {
    const pet = body as NewPet;
    if (!Number.isSafeInteger(pet.categoryId)) {
      // A valid int64, but JSON.parse has already rounded it: storing it would change it silently.
      // The message quotes the digits as sent, not the rounded number.
      const sent = sentNumber(bodyText, '/categoryId') ?? String(pet.categoryId);
      return errorReply(
        'validation_failed',
        `Invalid body: /categoryId ${sent} is beyond 2^53-1, the largest integer this mock stores exactly.`,
        [{ path: '/categoryId', message: 'is beyond 2^53-1, the largest integer this mock stores exactly' }],
      );
    }
    return andThen(store.create(pet), (created) =>
      created === undefined
        ? andThen(store.count(), (count) => errorReply('store_full', `The store is full (${count} pets).`))
        : reply(201, created.json, { location: `${basePath}/pets/${created.id}` }),
    );
  },
  getPet({ params, raw }, store) {
    return andThen(store.get(params.petId as number), (json) =>
      json === undefined ? errorReply('not_found', `No pet has id ${raw.petId}.`) : reply(200, json),
    );
  },
};
