// Errors as pages: a service's ApiError (404 for another organization's id, 409 for a state
// conflict, 400 naming a field) keeps its status and message; a form error names its field; any
// other failure is a 500 that shows only the request id (the details go to the log).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { html } from './html.ts';
import { bare, BASE } from './layout.ts';
import { FormError } from './form.ts';

export function refusal(reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  const body = html`<p>${message}</p><p><a href="${BASE}/approvals">Back to the dashboard</a></p>`;
  return reply.code(status).type('text/html; charset=utf-8').send(bare(title, body).text);
}

const TITLES: Record<number, string> = { 400: 'That did not work', 403: 'Not allowed', 404: 'Not found', 409: 'Not possible right now', 413: 'Too large', 415: 'Not a form', 429: 'Slow down', 502: 'The platform did not answer' };

export function dashboardErrorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof FormError) return refusal(reply, 400, TITLES[400] ?? '', `Check the field “${error.field}”: ${error.message.slice(error.field.length + 2)}.`);
  if (error instanceof ApiError) {
    if (error.status >= 500) request.log.error({ err: error }, 'dashboard request failed');
    return refusal(reply, error.status, TITLES[error.status] ?? 'That did not work', error.message);
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) return refusal(reply, status, TITLES[status] ?? 'That did not work', 'The request could not be read.');
  request.log.error({ err: error }, 'dashboard request failed');
  return refusal(reply, 500, 'Something went wrong', `The service failed to answer this page; request id ${request.id}.`);
}

export function dashboardNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return refusal(reply, 404, 'Not found', 'There is no such page in the dashboard.');
}
