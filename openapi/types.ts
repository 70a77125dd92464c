// The API's types, generated from openapi.yaml into api-types.gen.ts. Named here for convenience.
import type { components, operations, paths } from './api-types.gen.js';

export type { components, operations, paths };
export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type Pets = components['schemas']['Pets'];
export type ApiError = components['schemas']['Error'];
export type ErrorDetail = components['schemas']['ErrorDetail'];
export type OperationId = keyof operations;
