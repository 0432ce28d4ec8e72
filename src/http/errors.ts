// The one error catalogue: every answer that is not a success has the body
// {"error": {"message": "…", "code"?: "…"}}. A 5xx says only that something went wrong and gives
// the request id; the details go to the log, never to the client.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      message: Type.String({ description: 'What went wrong; for a 400, which field.' }),
      code: Type.Optional(Type.String({ description: 'Present only when a stable code exists.' })),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const errors = {
  invalid: (field: string, problem: string) => new ApiError(400, `${field}: ${problem}`),
  notSupported: (message: string) => new ApiError(400, message, 'not_supported'),
  unauthorized: (message = 'Missing, unknown or revoked API key') => new ApiError(401, message),
  notFound: (what: string) => new ApiError(404, `${what} not found`),
  conflict: (message: string, code: string) => new ApiError(409, message, code),
  gone: (message: string, code: string) => new ApiError(410, message, code),
  tooLarge: (message: string) => new ApiError(413, message, 'payload_too_large'),
  rateLimited: (message: string) => new ApiError(429, message),
};

interface AjvIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** "/platforms/0/accountId" → "platforms[0].accountId". */
export function fieldPath(context: string | undefined, instancePath: string, missing?: string): string {
  const parts = instancePath.split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (missing) parts.push(missing);
  let path = '';
  for (const part of parts) path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  const prefix = context === 'querystring' ? 'query' : context === 'params' ? 'path' : context === 'headers' ? 'header' : '';
  if (prefix) return path ? `${prefix}.${path}` : prefix;
  return path || 'body';
}

function describeIssue(issue: AjvIssue): string {
  const params = issue.params ?? {};
  switch (issue.keyword) {
    case 'required':
      return 'required';
    case 'enum':
      return `must be one of ${(Array.isArray(params.allowedValues) ? params.allowedValues : []).join(', ')}`;
    case 'additionalProperties':
      return `unknown field ${String(params.additionalProperty)}`;
    default:
      return issue.message ?? 'invalid';
  }
}

export function validationMessage(context: string | undefined, issues: AjvIssue[]): string {
  const issue = issues[0] ?? {};
  const missing = issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string' ? issue.params.missingProperty : undefined;
  return `${fieldPath(context, issue.instancePath ?? '', missing)}: ${describeIssue(issue)}`;
}

function send(reply: FastifyReply, status: number, message: string, code?: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: code ? { message, code } : { message } });
}

/** Maps every error, Fastify's own included, to the error body. */
export function handleError(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) {
    if (error.status >= 500) request.log.error({ err: error }, 'request failed');
    return send(reply, error.status, error.message, error.code);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return send(reply, 400, validationMessage(fastifyError.validationContext, fastifyError.validation));
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return send(reply, 413, 'body: request body is too large', 'payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return send(reply, 415, `Content-Type ${request.headers['content-type'] ?? '(none)'} is not supported here; send application/json`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return send(reply, 400, 'body: empty, but Content-Type is application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return send(reply, 400, 'Content-Length does not match the body');
    default:
      break;
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 400 && (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY')) {
    return send(reply, 400, 'body: malformed JSON');
  }
  if (status === 429) return send(reply, 429, error.message);
  if (status >= 400 && status < 500) return send(reply, status, error.message);
  request.log.error({ err: error }, 'request failed');
  return send(reply, 500, `Internal error; request id ${request.id}`);
}

export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return send(reply, 404, `Route ${request.method} ${request.url.split('?')[0] ?? ''} not found`);
}
