// Node's HTTP parser refuses some requests before Fastify sees them: headers over the size
// limit (431), a NUL or other forbidden byte in a header, a malformed request line or
// Content-Length, the bytes left over when a Content-Length was shorter than its body (parsed as
// the next request on the connection), a request that took too long (408). Fastify's
// `clientErrorHandler` answers them here, in the service's error shape, on the bare socket (there
// is no request object yet), and closes the connection, whose framing can no longer be trusted.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { errors } from './errors.ts';

interface ClientAnswer {
  status: number;
  message: string;
}

function answerFor(code: string | undefined): ClientAnswer {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'Request headers (with the request line) are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request took too long to arrive' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'body: chunk extensions are too large' };
    case 'HPE_INVALID_HEADER_TOKEN':
      return { status: 400, message: 'header: a header name or value has a forbidden character' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, message: 'Content-Length is malformed or conflicts with Transfer-Encoding' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, message: 'body: malformed chunked encoding' };
    default:
      return { status: 400, message: 'Malformed HTTP request' };
  }
}

/** True once the response to an earlier request on this socket has begun: no answer may cut into it. */
function responseUnderway(socket: Socket): boolean {
  const message: unknown = Reflect.get(socket, '_httpMessage');
  return typeof message === 'object' && message !== null && Reflect.get(message, 'headersSent') === true;
}

/**
 * Writes a whole answer in the error shape straight on `socket`, unless an answer to an earlier
 * request has begun there; the caller then closes the connection.
 */
export function answerOnSocket(socket: Socket, status: number, message: string): void {
  if (!socket.writable || responseUnderway(socket)) return;
  const body = JSON.stringify({ error: { message } });
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's `clientErrorHandler`, logging to `log`. */
export function clientErrorHandler(log: FastifyBaseLogger): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection, or one already gone, has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, message } = answerFor(error.code);
    log.debug({ err: error, status }, 'client error');
    answerOnSocket(socket, status, message);
    socket.destroy(error);
  };
}

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2). Node refuses a request without one with an
 * empty 400 of its own; with its check off (`requireHostHeader: false`), this hook refuses it in
 * the error shape instead.
 */
export function registerHostRequired(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const missing = request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1 && request.headers.host === undefined;
    done(missing ? errors.invalid('header.host', 'required') : undefined);
  });
}
