// POST routes whose body is all optional (read, a conversation's sync) may be called with no
// body at all: it stands for `{}`, so the schema's defaults apply instead of a 400.
import type { preValidationHookHandler } from 'fastify';

export const emptyBodyAsObject: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined || request.body === null) request.body = {};
  done();
};
