// The bench's scenarios: what each sends and which status each request expects back.
// Paths are relative to the API's base path, so one scenario drives petkit and the ceiling (at /v1)
// and Prism (which serves the document's paths without the server URL's /v1).

/**
 * How many pets petkit is seeded with and the ceiling precomputes, so that both answer a
 * `limit=100` list with the same 100 pets' worth of body. (Prism answers its static example.)
 */
export const BENCH_PETS = 100;

/** The bearer key the bench sends; its keys file lets it far more than a run sends (see keys-file.ts). */
export const BENCH_KEY = 'petkit-bench';

export type BenchMethod = 'GET' | 'POST';

export interface BenchRequest {
  readonly method: BenchMethod;
  /** Below the base path, with its query: `/pets?limit=20`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The status a conforming server answers with. Any other status counts as unexpected. */
  readonly expect: number;
}

export interface Scenario {
  readonly id: ScenarioId;
  readonly title: string;
  /** Sent in turn, round and round, on every connection. */
  readonly requests: readonly BenchRequest[];
}

export type ScenarioId =
  | 'list-20'
  | 'list-100'
  | 'list-status'
  | 'get'
  | 'create'
  | 'no-key-401'
  | 'invalid-400'
  | 'mixed';

const AUTH = { authorization: `Bearer ${BENCH_KEY}` } as const;
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' } as const;

/** A valid NewPet. */
export const VALID_NEW_PET = '{"name":"Biscuit","categoryId":3,"status":"available"}';
/** A NewPet with an empty name and a categoryId below 1: a 400 with code validation_failed. */
export const INVALID_NEW_PET = '{"name":"","categoryId":0}';

const list20: BenchRequest = { method: 'GET', path: '/pets?limit=20', headers: AUTH, expect: 200 };
const list100: BenchRequest = { method: 'GET', path: '/pets?limit=100', headers: AUTH, expect: 200 };
const listStatus: BenchRequest = {
  method: 'GET',
  path: '/pets?status=available',
  headers: AUTH,
  expect: 200,
};
const get: BenchRequest = { method: 'GET', path: '/pets/1', headers: AUTH, expect: 200 };
const create: BenchRequest = {
  method: 'POST',
  path: '/pets',
  headers: JSON_AUTH,
  body: VALID_NEW_PET,
  expect: 201,
};
const noKey: BenchRequest = {
  method: 'GET',
  path: '/pets?limit=20',
  headers: {},
  expect: 401,
};
const invalid: BenchRequest = {
  method: 'POST',
  path: '/pets',
  headers: JSON_AUTH,
  body: INVALID_NEW_PET,
  expect: 400,
};

export const SCENARIOS: readonly Scenario[] = [
  { id: 'list-20', title: 'GET /pets?limit=20', requests: [list20] },
  { id: 'list-100', title: 'GET /pets?limit=100', requests: [list100] },
  { id: 'list-status', title: 'GET /pets?status=available', requests: [listStatus] },
  { id: 'get', title: 'GET /pets/1', requests: [get] },
  { id: 'create', title: 'POST /pets (valid)', requests: [create] },
  { id: 'no-key-401', title: 'GET /pets, no key (401)', requests: [noKey] },
  { id: 'invalid-400', title: 'POST /pets, invalid body (400)', requests: [invalid] },
  {
    id: 'mixed',
    title: 'mixed: 4 list, 1 status, 2 get, 1 create, 1 401, 1 400',
    requests: [list20, get, list100, create, list20, noKey, listStatus, get, invalid, list20],
  },
];
