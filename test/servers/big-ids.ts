// A correct server whose pet ids are int64 values past 2^53 (9007199254740993 and up), which a double
// cannot hold: the reference with every id n shown as 2^53 + n. Ids that differ by one round to the
// same number, so a client that reads them with JSON.parse asks for other pets. Test code only.
import { createReference, type Handler, type RawRequest, type ReferenceOptions } from './reference.js';

/** The first id is BASE + 1: 9007199254740993, the first integer a double cannot hold. */
export const BASE = 2n ** 53n;
const INT64_MAX = 2n ** 63n - 1n;

/** The reference's id for a big one; undefined for an id no pet of this server can have. */
function small(big: bigint): bigint | undefined {
  return big > BASE && big - BASE <= 2n ** 31n ? big - BASE : undefined;
}

/** A pet body (or list) with each id n written as BASE + n, in exact digits (and `fraction`, say `.0`). */
function bigIds(body: string, fraction: string): string {
  const value: unknown = JSON.parse(body);
  return JSON.stringify(value, (name, item) =>
    name === 'id' && typeof item === 'number' ? `@big@${item}@` : item,
  ).replace(/"@big@(\d+)@"/g, (_, n: string) => `${BASE + BigInt(n)}${fraction}`);
}

/** `fraction`: written after each id's digits, `.0` say (9007199254740993.0 is that integer too). */
export function createBigIdServer(options: ReferenceOptions = {}, fraction = ''): Handler {
  const reference = createReference(options);
  return (request: RawRequest) => {
    const match = /^\/v1\/pets\/([^/]+)$/.exec(request.pathname);
    let forwarded = request;
    if (match !== null) {
      let segment: string;
      try {
        segment = decodeURIComponent(match[1] ?? '');
      } catch {
        segment = '';
      }
      // A canonical int64: the reference's pet, or one it lacks (0); any other spelling as sent.
      if (
        /^(0|-?[1-9]\d*)$/.test(segment) &&
        BigInt(segment) <= INT64_MAX &&
        BigInt(segment) >= -INT64_MAX - 1n
      ) {
        const id = small(BigInt(segment));
        forwarded = { ...request, pathname: `/v1/pets/${id === undefined ? '0' : String(id)}` };
      }
    }
    const response = reference(forwarded);
    if (response.status === 200 || response.status === 201) response.body = bigIds(response.body, fraction);
    if (response.headers.location !== undefined)
      response.headers.location = response.headers.location.replace(/\d+$/, (n) => String(BASE + BigInt(n)));
    if (response.status === 404 && match !== null)
      response.body = JSON.stringify({ code: 'not_found', message: 'No pet has that id.', status: 404 });
    return response;
  };
}
