// The API's types, generated from openapi.yaml into api-types.gen.ts. Named here for convenience.
import type { components, operations, paths } from './api-types.gen.js';

export type { components, operations, paths };
export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type Pets = components['schemas']['Pets'];
export type ApiError = components['schemas']['Error'];
export type ErrorDetail = components['schemas']['ErrorDetail'];
/** The API's operations; the mock's control API (`control*`, under `/__petkit/`) is not among them. */
export type OperationId = Exclude<keyof operations, `control${string}`>;
export type RuleInput = components['schemas']['RuleInput'];
export type RuleAnswer = components['schemas']['RuleAnswer'];
export type NetworkFault = components['schemas']['NetworkFault'];
export type Rule = components['schemas']['Rule'];
export type Rules = components['schemas']['Rules'];
export type RuleSwitch = components['schemas']['RuleSwitch'];
export type ClockChange = components['schemas']['ClockChange'];
export type ClockReading = components['schemas']['ClockReading'];
export type KeyWindows = components['schemas']['KeyWindows'];
export type KeyWindow = components['schemas']['KeyWindow'];
export type RateWindow = components['schemas']['Window'];
