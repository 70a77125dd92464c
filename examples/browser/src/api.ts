// The app's calls to the Pet Adoption API, and what it reads of each answer: the body, and the
// headers a browser app may read only because the API exposes them (X-RateLimit-*, Retry-After,
// Location). Types come from petkit's openapi.yaml.
import type { ApiError, NewPet, Pet } from 'petkit/openapi';

interface Read {
  readonly status: number;
  readonly remaining: string | null;
  readonly limit: string | null;
}

export type Result<T> =
  | (Read & { readonly ok: true; readonly body: T; readonly location: string | null })
  | (Read & { readonly ok: false; readonly retryAfter: string | null; readonly message: string });

async function read<T>(response: Response): Promise<Result<T>> {
  const seen = {
    status: response.status,
    remaining: response.headers.get('x-ratelimit-remaining'),
    limit: response.headers.get('x-ratelimit-limit'),
  };
  if (response.ok) {
    return {
      ...seen,
      ok: true,
      body: (await response.json()) as T,
      location: response.headers.get('location'),
    };
  }
  const error = (await response.json().catch(() => null)) as ApiError | null;
  return {
    ...seen,
    ok: false,
    retryAfter: response.headers.get('retry-after'),
    message: error?.message ?? response.statusText,
  };
}

export function api(baseUrl: string, key: string) {
  const headers = (extra: Record<string, string> = {}) => ({
    Authorization: `Bearer ${key}`,
    // What real frontends add: the API's CORS preflight allows whatever headers the browser asks for.
    'x-request-id': crypto.randomUUID(),
    ...extra,
  });
  return {
    listPets: async (status: string, extra?: Record<string, string>) => {
      const query = new URLSearchParams({ limit: '100', ...(status === '' ? {} : { status }) });
      return read<Pet[]>(await fetch(`${baseUrl}/pets?${query}`, { headers: headers(extra) }));
    },
    createPet: async (pet: NewPet) =>
      read<Pet>(
        await fetch(`${baseUrl}/pets`, {
          method: 'POST',
          headers: headers({ 'Content-Type': 'application/json' }),
          body: JSON.stringify(pet),
        }),
      ),
  };
}
