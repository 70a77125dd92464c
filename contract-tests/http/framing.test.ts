// RFC 9112's framing read from bytes: what each way of framing an answer comes to, the ways the RFC
// allows (no fault) and the ways it forbids (each its fault and its section).
import { describe, expect, test } from 'vitest';
import { readResponse } from './framing.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');
const BODY = '{"id":1}';
const OK = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`;

describe('what RFC 9112 allows: one message, its end where its framing says', () => {
  test.each([
    ['Content-Length', OK, 'GET', false, BODY, true],
    [
      'chunked, a chunk extension, a trailer field',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3;x=1\r\n{"i\r\n5\r\nd":1}\r\n0\r\nx-sum: 1\r\n\r\n`,
      'GET',
      false,
      BODY,
      true,
    ],
    [
      'chunk sizes in upper-case hex',
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n${BODY}\r\n00\r\n\r\n`,
      'GET',
      false,
      BODY,
      true,
    ],
    [
      'Connection: close',
      `HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 8\r\n\r\n${BODY}`,
      'GET',
      false,
      BODY,
      false,
    ],
    [
      'HTTP/1.0 with Content-Length',
      `HTTP/1.0 200 OK\r\ncontent-length: 8\r\n\r\n${BODY}`,
      'GET',
      false,
      BODY,
      false,
    ],
    [
      'HTTP/1.0 keep-alive',
      `HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 8\r\n\r\n${BODY}`,
      'GET',
      false,
      BODY,
      true,
    ],
    ['HTTP/1.0 ended by the close', `HTTP/1.0 200 OK\r\n\r\n${BODY}`, 'GET', true, BODY, false],
    ['a 100 (Continue) first', `HTTP/1.1 100 Continue\r\n\r\n${OK}`, 'GET', false, BODY, true],
    ['a 204 without a body', 'HTTP/1.1 204 No Content\r\n\r\n', 'GET', false, '', true],
    [
      'the answer to HEAD, its Content-Length that of a GET',
      `HTTP/1.1 200 OK\r\ncontent-length: 8\r\n\r\n`,
      'HEAD',
      false,
      '',
      true,
    ],
    [
      'a status line without a reason phrase',
      `HTTP/1.1 200 \r\ncontent-length: 8\r\n\r\n${BODY}`,
      'GET',
      false,
      BODY,
      true,
    ],
    [
      'a value in obs-text (latin1)',
      `HTTP/1.1 200 OK\r\nx-name: Zo\u00eb\r\ncontent-length: 8\r\n\r\n${BODY}`,
      'GET',
      false,
      BODY,
      true,
    ],
  ])('%s', (_what, text, method, eof, body, persistent) => {
    const reading = readResponse(bytes(`${text}NEXT`), method, eof);
    if (eof) {
      // Ended by the close: the rest is its body.
      expect(reading).toMatchObject({ kind: 'message', message: { closeDelimited: true } });
      return;
    }
    expect(reading.kind).toBe('message');
    if (reading.kind !== 'message') return;
    expect(reading.message.body.toString('latin1')).toBe(body);
    expect(reading.message.persistent).toBe(persistent);
    // What follows is the next message's, not this one's.
    expect(bytes(`${text}NEXT`).subarray(reading.message.end).toString()).toBe('NEXT');
  });

  test('a message not yet whole asks for more; the close before its end is not judged here', () => {
    // What to wait for: the Content-Length's end, the head's end.
    expect(readResponse(bytes(OK.slice(0, -3)), 'GET', false)).toEqual({ kind: 'more', need: OK.length });
    expect(readResponse(bytes(OK.slice(0, 20)), 'GET', false)).toEqual({ kind: 'more', need: 'blank' });
    expect(readResponse(bytes(OK.slice(0, -3)), 'GET', true).kind).toBe('unjudged');
    const chunked = 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n8\r\n{"i';
    expect(readResponse(bytes(chunked), 'GET', false)).toEqual({
      kind: 'more',
      need: chunked.length - 3 + 10,
    });
  });
});

describe('what RFC 9112 forbids: each its fault, naming its section', () => {
  test.each([
    [
      'obs-fold',
      `HTTP/1.1 200 OK\r\nx-a: 1,\r\n 2\r\ncontent-length: 8\r\n\r\n${BODY}`,
      /obs-fold/,
      'RFC 9112 §5.2',
    ],
    [
      'white space before the colon',
      `HTTP/1.1 200 OK\r\ncontent-length : 8\r\n\r\n${BODY}`,
      /colon/,
      'RFC 9112 §5.1',
    ],
    ['LF alone', `HTTP/1.1 200 OK\ncontent-length: 8\n\n${BODY}`, /LF alone/, 'RFC 9112 §2.2'],
    [
      'a bare CR',
      `HTTP/1.1 200 OK\r\nx-a: 1\r2\r\ncontent-length: 8\r\n\r\n${BODY}`,
      /bare CR/,
      'RFC 9112 §2.2',
    ],
    [
      'a NUL in a value',
      `HTTP/1.1 200 OK\r\nx-a: 1\u00002\r\ncontent-length: 8\r\n\r\n${BODY}`,
      /NUL/,
      'RFC 9110 §5.5',
    ],
    [
      'an ESC in a value',
      `HTTP/1.1 200 OK\r\nx-a: \u001b[31m\r\ncontent-length: 8\r\n\r\n${BODY}`,
      /control character/,
      'RFC 9110 §5.5',
    ],
    [
      'a line that is no field',
      `HTTP/1.1 200 OK\r\nnot a field\r\ncontent-length: 8\r\n\r\n${BODY}`,
      /no field line/,
      'RFC 9112 §5',
    ],
    [
      'a lower-case HTTP-name',
      `http/1.1 200 OK\r\ncontent-length: 8\r\n\r\n${BODY}`,
      /status line/,
      'RFC 9112 §4',
    ],
    ['HTTP/2 in text', `HTTP/2.0 200 OK\r\ncontent-length: 8\r\n\r\n${BODY}`, /status line/, 'RFC 9112 §4'],
    [
      'two Content-Lengths',
      `HTTP/1.1 200 OK\r\ncontent-length: 8\r\ncontent-length: 8\r\n\r\n${BODY}`,
      /Content-Length that is not one/,
      'RFC 9112 §6.3',
    ],
    [
      'a Content-Length list',
      `HTTP/1.1 200 OK\r\ncontent-length: 8, 8\r\n\r\n${BODY}`,
      /Content-Length that is not one/,
      'RFC 9112 §6.3',
    ],
    [
      'a signed Content-Length',
      `HTTP/1.1 200 OK\r\ncontent-length: +8\r\n\r\n${BODY}`,
      /Content-Length that is not one/,
      'RFC 9112 §6.3',
    ],
    [
      'Content-Length and chunked',
      `HTTP/1.1 200 OK\r\ncontent-length: 8\r\ntransfer-encoding: chunked\r\n\r\n8\r\n${BODY}\r\n0\r\n\r\n`,
      /both/,
      'RFC 9112 §6.1',
    ],
    [
      'chunked twice',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked, chunked\r\n\r\n0\r\n\r\n`,
      /more than once/,
      'RFC 9112 §6.1',
    ],
    [
      'Transfer-Encoding on HTTP/1.0',
      `HTTP/1.0 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`,
      /HTTP\/1\.0/,
      'RFC 9112 §6.1',
    ],
    [
      'a 204 with a Content-Length',
      `HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n`,
      /204/,
      'RFC 9112 §6.1, §6.2',
    ],
    [
      'a chunk size not hex',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n8 bytes\r\n${BODY}\r\n0\r\n\r\n`,
      /chunked body/,
      'RFC 9112 §7.1',
    ],
    [
      'a chunk longer than its size',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\n${BODY}\r\n0\r\n\r\n`,
      /chunked body/,
      'RFC 9112 §7.1',
    ],
    [
      'a chunk line ended by LF',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n8\n${BODY}\r\n0\r\n\r\n`,
      /chunked body/,
      'RFC 9112 §7.1',
    ],
    [
      'a folded trailer',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\nx-a: 1\r\n 2\r\n\r\n`,
      /chunked body/,
      'RFC 9112 §7.1',
    ],
  ])('%s', (_what, text, cause, cite) => {
    const reading = readResponse(bytes(text), 'GET', false);
    expect(reading.kind).toBe('fault');
    if (reading.kind !== 'fault') return;
    expect(reading.fault.cause).toMatch(cause);
    expect(reading.fault.because.cite).toBe(cite);
  });

  test('what came is shown escaped, never as raw control bytes', () => {
    const reading = readResponse(bytes(`HTTP/1.1 200 OK\r\nx-a: \u001b[2J\u0000\r\n\r\n`), 'GET', false);
    expect(reading.kind === 'fault' && reading.fault.message).toContain('\\u001b[2J\\u0000');
  });

  test('a chunked body read in pieces, again and again with one memo, comes whole', () => {
    const whole = bytes(
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${'1\r\nx\r\n'.repeat(500)}0\r\n\r\n`,
    );
    const memo = {};
    let reading = readResponse(whole.subarray(0, 50), 'GET', false, memo);
    for (let end = 51; end <= whole.length && reading.kind === 'more'; end += 7)
      reading = readResponse(whole.subarray(0, Math.min(end, whole.length)), 'GET', false, memo);
    if (reading.kind === 'more') reading = readResponse(whole, 'GET', false, memo);
    expect(reading.kind === 'message' && reading.message.body.toString()).toBe('x'.repeat(500));
  });

  test('a head past 64 KiB is not read further, nor a chunk-size line past 1 KiB', () => {
    const big = bytes(`HTTP/1.1 200 OK\r\nx-a: ${'a'.repeat(70_000)}`);
    expect(readResponse(big, 'GET', false).kind).toBe('unjudged');
    const chunk = bytes(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${'0'.repeat(2000)}`);
    expect(readResponse(chunk, 'GET', false).kind).toBe('fault');
  });
});
