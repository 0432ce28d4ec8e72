// While the app closes, a request that still arrives on an open connection (pipelined, or on a
// keep-alive connection that was busy) is turned away with a 503 in the error shape and
// `Connection: close`, so the client retries on another node. Fastify's own load shedding
// (return503OnClosing) answers with its own body, so it is switched off in app.ts for this.
import type { FastifyInstance } from 'fastify';

export const DRAINING_MESSAGE = 'The service is shutting down; send the request again';

export function registerDraining(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) {
      done();
      return;
    }
    void reply.code(503).header('connection', 'close').type('application/json; charset=utf-8').send({ error: { message: DRAINING_MESSAGE } });
  });
}
