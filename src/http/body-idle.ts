// A request whose body stops arriving while its connection stays open would hold its handler,
// and a partial upload, for ever: the server sets no overall request timeout, since a 1 GiB
// upload on a slow line, or a URL fetch inside POST /media, may rightly take many minutes. So a
// request with a body is cut off once no byte has arrived on its connection for `idleMs`
// (checked every `idleMs`, so it goes after one to two idle periods) while the server was
// ready for more, with a 408 if no answer has begun. The upload's own clean-up then removes what
// it had stored.
import type { FastifyInstance } from 'fastify';
import { answerOnSocket } from './client-errors.ts';
import { ApiError } from './errors.ts';

export function registerBodyIdleTimeout(app: FastifyInstance, idleMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const length = raw.headers['content-length'];
    const hasBody = raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody) {
      done();
      return;
    }
    const socket = raw.socket;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || raw.destroyed) {
        clearInterval(timer);
      } else if (socket.bytesRead === seen && raw.readableLength === 0 && raw.readableFlowing !== false) {
        // Nothing arrived, nothing is buffered, and we are not holding the body back (a slow
        // store applying backpressure pauses the stream): the client stopped sending.
        clearInterval(timer);
        request.log.warn({ idleMs }, 'request body stalled; closing the connection');
        // The answer goes on the socket itself: destroying the request closes the connection
        // before the reply could carry it. The same error, a 4xx, then reaches the request's own
        // error path (the upload's clean-up), which answers nobody and logs no failure.
        const stalled = new ApiError(408, `body: no byte of it arrived for ${idleMs} ms; the request was cut off`);
        answerOnSocket(socket, stalled.status, stalled.message);
        raw.destroy(stalled);
      } else {
        seen = socket.bytesRead;
      }
    }, idleMs);
    timer.unref();
    reply.raw.once('close', () => clearInterval(timer));
    done();
  });
}
