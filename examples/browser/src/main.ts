// A small app over the Pet Adoption API: lists pets, filters by status, creates a pet, shows how many
// requests the key has left, and says when to try again after a 429. It runs in one of two modes.
import type { Pet, PetStatus } from 'petkit/openapi';
import { api } from './api.js';

// The one line that switches the mode:
//   'msw'    the MSW worker answers in the page with petkit's handlers (no server; `npx msw init public/`)
//   'server' fetch across origins to a running `petkit mock` at SERVER_URL (`npx petkit mock`)
const MODE: 'msw' | 'server' = 'msw';
const SERVER_URL = 'http://127.0.0.1:4010/v1';
const API_KEY = 'demo-free';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

async function start(): Promise<void> {
  if (MODE === 'msw') {
    const [{ setupWorker }, { handlers }] = await Promise.all([import('msw/browser'), import('petkit/msw')]);
    await setupWorker(...handlers).start({ quiet: true, onUnhandledRequest: 'bypass' });
  }
  const client = api(MODE === 'msw' ? '/v1' : SERVER_URL, API_KEY);
  $('mode').textContent =
    MODE === 'msw' ? 'mode: MSW worker in the page' : `mode: petkit mock at ${SERVER_URL}`;

  const show = (text: string, kind: 'ok' | 'error') => {
    $('message').textContent = text;
    $('message').className = kind;
  };
  const render = (pets: readonly Pet[]) => {
    $('pets').replaceChildren(
      ...pets.map((pet) => {
        const row = document.createElement('tr');
        for (const value of [pet.id, pet.name, pet.categoryId, pet.status ?? '']) {
          const cell = document.createElement('td');
          cell.textContent = String(value);
          row.append(cell);
        }
        return row;
      }),
    );
  };

  const report = (result: { remaining: string | null; limit: string | null }) => {
    if (result.remaining !== null) {
      $('remaining').textContent = `${result.remaining} of ${result.limit} requests left this minute`;
    }
  };

  const failed = (result: { status: number; retryAfter: string | null; message: string }) => {
    if (result.status === 429) {
      show(
        `Too many requests: try again in ${result.retryAfter ?? '?'} s (Retry-After: ${result.retryAfter}).`,
        'error',
      );
    } else {
      show(`The API answered ${result.status}: ${result.message}`, 'error');
    }
  };

  const load = async () => {
    const result = await client.listPets($<HTMLSelectElement>('status').value);
    report(result);
    if (result.ok) render(result.body);
    else failed(result);
  };

  $('status').addEventListener('change', () => void load());
  $('too-many').addEventListener('click', async () => {
    const result = await client.listPets($<HTMLSelectElement>('status').value, { Prefer: 'code=429' });
    report(result);
    if (!result.ok) failed(result);
  });
  $<HTMLFormElement>('create').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const result = await client.createPet({
      name: String(form.get('name')),
      categoryId: Number(form.get('categoryId')),
      status: String(form.get('status')) as PetStatus,
    });
    report(result);
    if (!result.ok) return failed(result);
    show(`Created #${result.body.id} ${result.body.name} (${result.location}).`, 'ok');
    (event.target as HTMLFormElement).reset();
    await load();
  });
  await load();
  document.body.dataset.ready = 'true';
}

void start();
