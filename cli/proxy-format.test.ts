// What petkit proxy writes to the terminal of what an app or an upstream sent: never a control
// character as one (an escape sequence would drive the terminal; a bidi control would reorder the line).
import { describe, expect, it } from 'vitest';
import { formatDeparture, formatExchange, formatUpstreamError } from './proxy.js';

describe('petkit proxy on the terminal', () => {
  it('shows the control characters of a departure as \\uXXXX, C1 and bidi controls too', () => {
    const text = formatDeparture({
      time: 0,
      side: 'response',
      check: 'response_schema_conformance',
      operationId: 'getPet',
      method: 'GET',
      target: '/v1/pets/1',
      status: 200,
      expected: 'a Pet',
      received: 'the body is not JSON: "\u001b[2J\u009b31m\u202egnp.exe"',
      curl: "curl -i 'http://127.0.0.1:8080/v1/pets/1'",
    });
    expect(text).toContain('received: the body is not JSON: "\\u001b[2J\\u009b31m\\u202egnp.exe"\n');
    expect(text.split('\n')).toHaveLength(5);
    for (const control of ['\u001b', '\u009b', '\u202e']) expect(text).not.toContain(control);
  });

  it('and of an exchange line', () => {
    const line = formatExchange({
      method: 'GET',
      target: '/v1/pets?x=\u009b',
      status: 200,
      durationMs: 3,
      departures: 0,
      unchecked: [{ side: 'response', reason: 'a body of \u202e' }],
    });
    expect(line).toBe('GET /v1/pets?x=\\u009b 200 3ms ok, response not checked: a body of \\u202e\n');
  });

  it('and of what it says of an upstream that failed, on one line', () => {
    expect(
      formatUpstreamError('the upstream http://x answered (\u001b[2J\r\nforged line) to GET /v1/pets'),
    ).toBe(
      'petkit proxy: the upstream http://x answered (\\u001b[2J\\u000d\\u000aforged line) to GET /v1/pets\n',
    );
  });
});
