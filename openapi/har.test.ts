import { describe, expect, it } from 'vitest';
import { buildHar } from './har.js';

describe('buildHar', () => {
  it('writes exchanges as HAR 1.2 entries, with the query, the posted body and the response content', () => {
    const har = buildHar(
      [
        {
          startedMs: Date.UTC(2030, 0, 1),
          method: 'POST',
          url: 'http://127.0.0.1:4010/v1/pets?x=1',
          requestHeaders: { 'content-type': 'application/json', authorization: 'Bearer [redacted]' },
          requestBody: '{"name":"Rex","categoryId":2}',
          status: 201,
          responseHeaders: { 'content-type': 'application/json', location: '/v1/pets/51' },
          responseBody: '{"id":51}',
          timeMs: 3,
          comment: 'cut',
        },
      ],
      { name: 'petkit mock', version: '1.0.0' },
    );
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'petkit mock', version: '1.0.0' });
    const [entry] = har.log.entries;
    expect(entry).toMatchObject({
      startedDateTime: '2030-01-01T00:00:00.000Z',
      time: 3,
      comment: 'cut',
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:4010/v1/pets?x=1',
        queryString: [{ name: 'x', value: '1' }],
        bodySize: 29,
        postData: { mimeType: 'application/json', text: '{"name":"Rex","categoryId":2}' },
      },
      response: {
        status: 201,
        redirectURL: '/v1/pets/51',
        content: { size: 9, mimeType: 'application/json', text: '{"id":51}' },
      },
      timings: { send: 0, wait: 3, receive: 0 },
    });
    expect(entry?.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [redacted]' });
  });
  it('leaves postData and content text out when there was no body', () => {
    const [entry] = buildHar([
      {
        startedMs: 0,
        method: 'GET',
        url: 'http://127.0.0.1/v1/pets',
        requestHeaders: {},
        status: 204,
        responseHeaders: {},
        timeMs: 0,
      },
    ]).log.entries;
    expect(entry?.request).not.toHaveProperty('postData');
    expect(entry?.response.content).toEqual({ size: 0, mimeType: '' });
  });
});
