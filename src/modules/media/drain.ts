// An answer given before the request body was read to its end (a 400 on the first bytes, a 413
// past the limit) leaves the client still sending. Closing the socket at once would make the
// kernel reset the connection, and the client could lose the answer it has not read yet; doing
// nothing would leave the connection busy until its keep-alive timeout. So the rest of the body
// is read and dropped, for a bounded time, which also frees the connection for the next request
// (nginx calls this a lingering close); past the bound the socket is closed.
import type { IncomingMessage } from 'node:http';

const LINGER_MS = 5_000;

export function drainRest(request: IncomingMessage): void {
  // readableEnded: a request injected in-process (the MCP tools) has no parser to set `complete`.
  if (request.complete || request.readableEnded || request.destroyed) return;
  const timer = setTimeout(() => request.socket.destroy(), LINGER_MS);
  timer.unref();
  request.once('end', () => clearTimeout(timer));
  request.once('close', () => clearTimeout(timer));
  request.unpipe();
  request.resume();
}
