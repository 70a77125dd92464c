// What never reaches the proxy's listener: a request Node's parser refused ('clientError') and a
// CONNECT tunnel ('connect'). Each gets a JSON Error on the raw socket, which then closes; a socket
// already gone, or with an answer under way, is only closed. Nothing here can throw past the socket.
import type { Duplex } from 'node:stream';
import { type ProxyErrorCode, rawError } from './errors.js';

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  const refusal = refusalOf(error.code);
  const underWay = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (refusal === undefined || !socket.writable || underWay?.headersSent === true) {
    socket.destroy();
    return;
  }
  socket.end(rawError(refusal.code, refusal.message));
}

function refusalOf(code: string | undefined): { code: ProxyErrorCode; message: string } | undefined {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      code: 'request_header_too_large',
      message: 'The request line and headers are larger than Node allows.',
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: 'request_timeout', message: 'The request was not received in time.' };
  if (code?.startsWith('HPE_') === true)
    return { code: 'invalid_request', message: `The request is not valid HTTP/1.1 (${code}).` };
  return undefined; // ECONNRESET and other socket errors: nobody to answer
}

/** CONNECT asks for a tunnel to a host of the client's choosing: the proxy goes only to its upstream. */
export function answerConnect(socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    rawError(
      'method_not_allowed',
      'CONNECT is not allowed: petkit proxy forwards requests to its upstream only, it opens no tunnel.',
    ),
  );
}
