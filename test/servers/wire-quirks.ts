// Targets that depart from the contract on the wire in ways the hostile ones (hostile.ts) do not: each
// is the reference server with one habit, served through serveHostile. Test code only.
import type { ServerResponse } from 'node:http';
import type { HostileServer } from './hostile.js';
import type { RawRequest, RawResponse } from './reference.js';

const isListPets = (request: RawRequest) => request.method === 'GET' && request.pathname === '/v1/pets';

function send(res: ServerResponse, response: RawResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

export const WIRE_QUIRKS = {
  /** An editor's "UTF-8 with BOM": U+FEFF before every listPets JSON body. */
  bomJson: {
    name: 'bom-json',
    does: 'puts a byte-order mark (U+FEFF) before the JSON body of every listPets answer',
    answer: (request, response, res) =>
      send(res, isListPets(request) ? { ...response, body: `\uFEFF${response.body}` } : response),
  },
} satisfies Record<string, HostileServer>;
