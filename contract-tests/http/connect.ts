// How the wire probe reaches the target: a raw connection, node:net for http:, node:tls for https:. Its
// types hold nothing of Node's own, so that petkit/contract's declarations type-check without
// @types/node (ContractOptions.connect names them).
import { isIP, connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** What the wire probe uses of a connection (a node:net Socket or node:tls TLSSocket is one). */
export interface WireSocket {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (cause: Error) => void): unknown;
  write(data: string): unknown;
  destroy(): unknown;
}

/** Opens a connection to the target of a URL (injected in tests; the default is connectTarget). */
export type Connect = (url: URL) => WireSocket;

/**
 * node:net for http:, node:tls for https: with what Node's fetch (undici) offers by default: the name
 * for SNI and the certificate check, the CAs Node trusts (NODE_EXTRA_CA_CERTS too), HTTP/1.1 by ALPN.
 */
export const connectTarget: Connect = (url) => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const https = url.protocol === 'https:';
  const port = url.port === '' ? (https ? 443 : 80) : Number(url.port);
  if (!https) return netConnect({ host, port });
  return tlsConnect({
    host,
    port,
    ...(isIP(host) === 0 ? { servername: host } : {}),
    ALPNProtocols: ['http/1.1'],
  });
};
