import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { targetOf, targetText } from './call.js';
import type { JournalEntry } from './journal.js';
import { createMock } from './mock.js';
import { createHandlers } from './msw.js';

describe('targetOf', () => {
  it('splits an origin-form target into path, query string and parsed query', () => {
    const target = targetOf('/v1/pets?limit=2&status=sold');
    expect([target.pathname, target.search]).toEqual(['/v1/pets', '?limit=2&status=sold']);
    expect(target.searchParams.getAll('limit')).toEqual(['2']);
  });
  it('treats a bare or trailing ? as no query, as URL does', () => {
    expect(targetOf('/v1/pets?').search).toBe(new URL('http://x/v1/pets?').search);
    expect(targetOf('/v1/pets').search).toBe('');
  });
  it('keeps the path as sent, percent-encoding and dot segments included', () => {
    expect(targetOf('/v1/pets/%31').pathname).toBe('/v1/pets/%31');
    expect(targetOf('/v1/./pets').pathname).toBe('/v1/./pets');
  });
});

describe('targetText', () => {
  it('gives path and query as the journal shows them, from a target as sent or a URL alike', () => {
    for (const sent of ['/v1/pets?limit=2&status=sold', '/v1/pets', '/v1/pets?', '/v1/pets/%31?a=%20']) {
      const url = new URL(`http://x${sent}`);
      expect(targetText(targetOf(sent))).toBe(url.pathname + url.search);
      expect(targetText(url)).toBe(url.pathname + url.search);
    }
  });
});

describe('a request body that stops without ending, then the request aborted', () => {
  const headers = { authorization: 'Bearer demo-free', 'content-type': 'application/json' };
  /** A body that sends nothing, and aborts the request when the mock first asks it for bytes. */
  function stalled(abort: () => void) {
    return new ReadableStream<Uint8Array>(
      {
        pull() {
          abort();
          return new Promise<void>(() => undefined);
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** A POST whose body stalls after its first bytes, aborted by its signal once it has. */
  function abortedWhileStalled(): RequestInit {
    const controller = new AbortController();
    return {
      method: 'POST',
      headers,
      body: stalled(() => controller.abort()),
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit;
  }

  it("rejects mock.request with the signal's reason, and the mock lets the request go", async () => {
    const mock = createMock({ seed: 1 });
    const recorded = new Promise<JournalEntry>((resolve) => mock.observe(resolve));
    const sent = mock.request('/v1/pets', abortedWhileStalled());
    // It waited for the body for ever: mock.request never settled.
    await expect(sent).rejects.toMatchObject({ name: 'AbortError' });
    expect((await recorded).status).toBe(400);
    expect(mock.inFlight).toBe(0);
  });

  it("under MSW, ends the mock's request when the app's fetch is aborted", async () => {
    const mock = createMock({ seed: 1 });
    const recorded = new Promise<JournalEntry>((resolve) => mock.observe(resolve));
    const msw = setupServer(...createHandlers({ mock, baseUrl: 'https://api.example.test/v1' }));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const sent = fetch('https://api.example.test/v1/pets', abortedWhileStalled());
      await expect(sent).rejects.toMatchObject({ name: 'AbortError' });
      // The app's fetch rejected, but the mock kept the request in flight, unjournaled, for good.
      expect((await recorded).status).toBe(400);
      expect(mock.inFlight).toBe(0);
    } finally {
      msw.close();
    }
  });
});

describe('a Request whose body was read already', () => {
  it('is refused as fetch refuses it, not answered 400 as a body that broke off', async () => {
    const mock = createMock({ seed: 1 });
    const request = new Request('http://localhost/v1/pets', {
      method: 'POST',
      headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect((await mock.handle(request)).status).toBe(201);
    const refusal = new TypeError(
      'The Request to POST /v1/pets has had its body read already; a body is read once: send a new Request, or read a clone (request.clone()).',
    );
    await expect(mock.handle(request)).rejects.toThrow(refusal);
    await expect(mock.request(request)).rejects.toThrow(refusal);
    expect(mock.journal).toHaveLength(1);
  });
});
