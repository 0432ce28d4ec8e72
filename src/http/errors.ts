// The one error catalogue: every answer that is not a success has the body
// {"error": {"message": "…", "code"?: "…"}}. A 5xx says only that something went wrong and gives
// the request id; the details go to the log, never to the client.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { unknownNameProblem } from '../lib/closest-name.ts';

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      message: Type.String({ description: 'What went wrong; for a 400, which field.' }),
      code: Type.Optional(Type.String({ description: 'Present only when a stable code exists.' })),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

/**
 * Every error code the API answers, declared once, with its status and what it means (the
 * contract's words where its Errors table has the code). Call sites name an entry
 * (`apiError('NOT_EDITABLE', message)`, `errors.notSupported(message)`), never a status beside a
 * code; answers without a code (a 400 naming a field, 401, 404, the service's own 429, 5xx) take
 * a status alone. The upper-case codes are the post and delivery state conflicts.
 */
export const ERROR_CODES = {
  not_supported: { status: 400, meaning: 'The platform does not offer the feature.' },
  invalid_request: { status: 400, meaning: 'The platform rejected the input.' },
  approval_required: {
    status: 403,
    meaning:
      'Approval applies to the key, organization or account: comment moderation, changes to published posts, sending direct and WhatsApp messages, and ads operations that create, change or spend are refused.',
  },
  missing_permission: { status: 403, meaning: 'The account did not grant the permission; add it in the platform app, then reconnect.' },
  reconnect_required: { status: 409, meaning: 'Token no longer valid; the account is needs_reconnect.' },
  outside_messaging_window: {
    status: 409,
    meaning: "Direct message outside the platform window (24 hours after the person's last message, 7 days with tag HUMAN_AGENT); nothing was sent.",
  },
  recipient_unavailable: { status: 409, meaning: 'The person cannot receive messages from the account right now.' },
  sync_required: { status: 409, meaning: "Conversation sync called before the account's conversations were synced." },
  NOT_EDITABLE: { status: 409, meaning: 'Only draft, scheduled, pending_approval and failed posts can be changed.' },
  PUBLISH_IN_PROGRESS: { status: 409, meaning: 'The post is queued or publishing.' },
  ALREADY_PUBLISHED: { status: 409, meaning: 'The post is already published.' },
  APPROVAL_REQUIRED: { status: 409, meaning: 'The post is waiting for approval.' },
  REJECTED: { status: 409, meaning: 'The post was rejected by an approver.' },
  NOT_PUBLISHED: { status: 409, meaning: 'No target of the post that the operation applies to is published.' },
  ACCOUNT_REMOVED: { status: 409, meaning: 'The account of a published target was removed.' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, meaning: 'The x-request-id was used with another body in the last 24 hours.' },
  REQUEST_IN_PROGRESS: { status: 409, meaning: 'A request with this x-request-id is still running.' },
  REQUEST_OUTCOME_UNKNOWN: {
    status: 409,
    meaning: 'The earlier request with this x-request-id was interrupted after its platform call began; it may have been made. Nothing was sent again.',
  },
  DELIVERY_IN_PROGRESS: { status: 409, meaning: 'An attempt of this webhook delivery is running.' },
  template_error: { status: 400, meaning: 'WhatsApp: template name, language, parameters or status rejected.' },
  recipient_not_allowed: { status: 403, meaning: "WhatsApp: recipient not in the test number's allowed list." },
  account_restricted: { status: 403, meaning: 'WhatsApp: business account restricted or payment issue.' },
  phone_number_not_registered: { status: 409, meaning: 'WhatsApp: register the number with POST /whatsapp/accounts/{id}/register.' },
  marketing_limit: { status: 429, meaning: 'WhatsApp: marketing messages to this person are limited; retry later.' },
  pending_expired: { status: 410, meaning: 'Pending connection expired or already completed.' },
  payload_too_large: { status: 413, meaning: 'Media upload or request body too large.' },
  rate_limited: { status: 429, meaning: "The platform rate-limited the request, or an account's publishing window is full." },
  platform_error: { status: 502, meaning: 'Any other platform failure.' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  /** Sent as Retry-After when set: how long the platform asked us to wait (rate_limited). */
  retryAfterSeconds: number | undefined;
  /** A catalogue code (its status comes from the catalogue), or the status of an answer without a code. */
  constructor(codeOrStatus: ErrorCode | number, message: string) {
    super(message);
    if (typeof codeOrStatus === 'number') {
      this.status = codeOrStatus;
      this.code = undefined;
    } else {
      this.status = ERROR_CODES[codeOrStatus].status;
      this.code = codeOrStatus;
    }
  }
}

/** The answer of a catalogue entry. */
export const apiError = (code: ErrorCode, message: string): ApiError => new ApiError(code, message);

/**
 * Codes a failed post target's `error` text starts with ("reconnect_required: the account must be
 * reconnected"): two of the catalogue's, and the media check's own invalid_media. The text is not
 * an answer's code, but clients read the prefix, so it is written in one place.
 */
export type TargetErrorCode = Extract<ErrorCode, 'reconnect_required' | 'missing_permission'> | 'invalid_media';
export const targetError = (code: TargetErrorCode, text: string): string => `${code}: ${text}`;

/**
 * The `error` the connect callback sends the browser on with (to the client's redirectUrl), beside
 * `error_description`: the consent was cancelled, granted nothing, or, with the catalogue's
 * meanings, not_supported, platform_error, invalid_request (no code from the platform).
 */
export type ConnectErrorCode = 'access_denied' | 'nothing_granted' | Extract<ErrorCode, 'not_supported' | 'platform_error' | 'invalid_request'>;

// A field's name comes from the client when it is a key of a free-form object or a form field,
// so an answer shows it only in plain characters and short: never the hostile text itself.
const PLAIN_SEGMENT = /^[A-Za-z0-9_$.-]{1,64}$/;
const FIELD_MAX = 200;

/** A field name as an answer may show it: other characters become ?, and it is cut at FIELD_MAX. */
function plainField(field: string): string {
  const plain = field.slice(0, FIELD_MAX).replace(/[^A-Za-z0-9_$.[\]-]/g, '?') || 'body';
  return field.length > FIELD_MAX ? `${plain}…` : plain;
}

export const errors = {
  invalid: (field: string, problem: string) => new ApiError(400, `${plainField(field)}: ${problem}`),
  notSupported: (message: string) => apiError('not_supported', message),
  unauthorized: (message = 'Missing, unknown or revoked API key') => new ApiError(401, message),
  notFound: (what: string) => new ApiError(404, `${what} not found`),
  tooLarge: (message: string) => apiError('payload_too_large', message),
  /** The service's own per-key limit: 429 without a code (the platform's is rate_limited). */
  rateLimited: (message: string) => new ApiError(429, message),
};

interface AjvIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  /** The schema holding the failed keyword (Ajv's `verbose`): an unknown field's siblings. */
  parentSchema?: unknown;
  /** The value it judged (Ajv's `verbose`). */
  data?: unknown;
}

const PREFIXES: Record<string, string> = { querystring: 'query', params: 'path', headers: 'header' };

/**
 * ["platforms", "0", "accountId"] → "platforms[0].accountId", after a prefix (path, query, header)
 * if any; a segment that is not a plain name shows as [?].
 */
export function formatField(prefix: string, parts: readonly string[]): string {
  let path = '';
  for (const part of parts) {
    const shown = PLAIN_SEGMENT.test(part) ? part : '[?]';
    path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${shown}` : shown;
  }
  if (prefix) return path ? `${prefix}.${path}` : prefix;
  return path || 'body';
}

/** "/platforms/0/accountId" → "platforms[0].accountId". */
export function fieldPath(context: string | undefined, instancePath: string, missing?: string): string {
  const parts = instancePath.split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (missing) parts.push(missing);
  return formatField(PREFIXES[context ?? ''] ?? '', parts);
}

function describeIssue(issue: AjvIssue): string {
  const params = issue.params ?? {};
  switch (issue.keyword) {
    case 'required':
      return 'required';
    case 'enum':
      return `must be one of ${(Array.isArray(params.allowedValues) ? params.allowedValues : []).join(', ')}`;
    default:
      return issue.message ?? 'invalid';
  }
}

/** The names the object declares, for "did you mean". */
function declaredNames(schema: unknown): string[] {
  const properties = typeof schema === 'object' && schema !== null ? (schema as { properties?: unknown }).properties : undefined;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/**
 * An unknown field (or query parameter) is named with its own path, and the declared name it
 * looks like, if one does: "platforms[0].acountId: unknown field (did you mean accountId?)".
 * The suggestion is given only for a name the answer shows as sent.
 */
function unknownMessage(context: string | undefined, issue: AjvIssue, name: string): string {
  const what = context === 'querystring' ? 'parameter' : 'field';
  const field = fieldPath(context, issue.instancePath ?? '', name);
  return `${field}: ${PLAIN_SEGMENT.test(name) ? unknownNameProblem(what, name, declaredNames(issue.parentSchema)) : `unknown ${what}`}`;
}

/**
 * Ajv checks `required` before unknown fields, so a misspelt required field would be reported
 * missing; the field sent under the wrong name is the better answer: "acountId: unknown field
 * (did you mean accountId?)" rather than "accountId: required".
 */
function misspeltRequired(issue: AjvIssue): string | undefined {
  const schema = issue.parentSchema as { additionalProperties?: unknown } | undefined;
  if (issue.keyword !== 'required' || schema?.additionalProperties !== false) return undefined;
  if (typeof issue.data !== 'object' || issue.data === null || Array.isArray(issue.data)) return undefined;
  const declared = new Set(declaredNames(schema));
  return Object.keys(issue.data).find((name) => !declared.has(name));
}

export function validationMessage(context: string | undefined, issues: AjvIssue[]): string {
  const issue = issues[0] ?? {};
  const unknown = issue.keyword === 'additionalProperties' ? issue.params?.additionalProperty : misspeltRequired(issue);
  if (typeof unknown === 'string') return unknownMessage(context, issue, unknown);
  const missing = issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string' ? issue.params.missingProperty : undefined;
  return `${fieldPath(context, issue.instancePath ?? '', missing)}: ${describeIssue(issue)}`;
}

function send(reply: FastifyReply, status: number, message: string, code?: ErrorCode): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: code ? { message, code } : { message } });
}

/** The longest path parameter the router takes; an id is at most 100 characters (IdParams). */
export const MAX_PARAM_LENGTH = 100;

interface Entry {
  status: number;
  message: string;
  code?: ErrorCode;
}

// Fastify's and its plugins' client errors, in the service's words: their own messages may
// carry the input (the whole path, the Content-Type), so none is passed through.
const FRAMEWORK_ERRORS: Record<string, Entry> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'body: empty, but Content-Type is application/json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'body: malformed JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Content-Length does not match the body' },
  FST_ERR_BAD_URL: { status: 400, message: 'path: not valid percent-encoded UTF-8' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: `path: a parameter is longer than ${MAX_PARAM_LENGTH} characters` },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: 'Content-Type: not multipart/form-data' },
};

/** 1048576 → "1 MiB", 1536 → "1.5 KiB". */
export function readableBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${units[unit] ?? 'bytes'}`;
}

/** A media type is shown back only when it is a plain one ("text/plain"), never other text. */
function shownMediaType(header: string | undefined): string {
  const type = (header ?? '').split(';')[0]?.trim() ?? '';
  if (!type) return 'a missing Content-Type';
  return /^[\w.+-]{1,64}\/[\w.+-]{1,64}$/.test(type) ? `Content-Type ${type}` : 'this Content-Type';
}

function frameworkEntry(error: FastifyError, request: FastifyRequest): Entry | null {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, message: `${shownMediaType(request.headers['content-type'])} is not supported here; send application/json` };
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    // The limit is the route's own (a JSON body is 1 MiB unless the route says more).
    const limit = request.routeOptions.bodyLimit;
    return { status: ERROR_CODES.payload_too_large.status, message: `body: request body is larger than the limit of ${limit} bytes (${readableBytes(limit)})`, code: 'payload_too_large' };
  }
  const entry = FRAMEWORK_ERRORS[error.code];
  if (entry) return entry;
  const status = error.statusCode ?? 500;
  if (status === 400 && error instanceof SyntaxError) return { status, message: 'body: malformed JSON' };
  if (status >= 400 && status < 500) return { status, message: STATUS_CODES[status] ?? 'Bad request' };
  return null;
}

/** Maps every error, Fastify's own included, to the error body. */
export function handleError(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) {
    if (error.status >= 500) request.log.error({ err: error }, 'request failed');
    if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
    return send(reply, error.status, error.message, error.code);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return send(reply, 400, validationMessage(fastifyError.validationContext, fastifyError.validation));
  }
  const entry = frameworkEntry(fastifyError, request);
  if (entry) return send(reply, entry.status, entry.message, entry.code);
  request.log.error({ err: error }, 'request failed');
  return send(reply, 500, `Internal error; request id ${request.id}`);
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals (a malformed percent-encoding, a path
 * parameter over MAX_PARAM_LENGTH), answered before any route, so without the onSend hooks.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('request-id', request.id);
  handleError(error, request, reply);
}

// A path the client sent is shown back only when it is short and plain.
const PLAIN_PATH = /^[A-Za-z0-9/_.~-]{1,200}$/;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A path no route has is 404; a path that routes have, by other methods, is 405 with those in Allow. */
export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '';
  const shown = PLAIN_PATH.test(path) ? ` ${path}` : '';
  const routed = (method: string) => request.server.findRoute({ method, url: path }) !== null;
  // A route of this very method that answered "not found" itself (callNotFound) stays a 404.
  const allowed = routed(request.method) ? [] : METHODS.filter(routed);
  if (allowed.length) return send(reply.header('allow', allowed.join(', ')), 405, `${request.method} is not allowed on${shown || ' this path'}; it takes ${allowed.join(', ')}`);
  return send(reply, 404, shown ? `Route ${request.method}${shown} not found` : `Route not found`);
}
