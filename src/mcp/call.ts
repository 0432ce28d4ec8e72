// A tool call as an API request, and the API's answer as the tool's result. The arguments go
// back where the operation takes them (path, query, header, body); the answer is the route's
// own, so a 2xx body is the result and an error is an error result with its status, code and
// message, as the HTTP caller would see them.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatField } from '../http/errors.ts';
import { unknownNameProblem } from '../lib/closest-name.ts';
import type { ToolOperation } from './tools.ts';

export interface ApiRequest {
  method: string;
  /** Relative to /api/v1, with the query string. */
  path: string;
  headers: Record<string, string>;
  /** The JSON body, or undefined for none. */
  body?: unknown;
}

export interface ApiAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  retryAfter: string | null;
}

/** An argument the API cannot be called without (a path parameter has nowhere else to go). */
export class ToolInputError extends Error {}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/**
 * The first argument the tool does not declare, as the 400 names it ("schedule: unknown argument
 * (did you mean scheduledFor?)"), or null. Arguments are checked here, by the names the tool
 * lists, so none is dropped and none is named with the API's body or query prefix.
 */
export function unknownArgument(inputSchema: { properties: Record<string, unknown> }, args: Record<string, unknown>): string | null {
  const name = Object.keys(args).find((arg) => !Object.hasOwn(inputSchema.properties, arg));
  if (name === undefined) return null;
  return `${formatField('', [name])}: ${unknownNameProblem('argument', name, Object.keys(inputSchema.properties))}`;
}

export function requestFor(operation: ToolOperation, args: Record<string, unknown>): ApiRequest {
  const rest = { ...args };
  let path = operation.path;
  for (const name of operation.pathParams) {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null || value === '') throw new ToolInputError(`${name}: required`);
    path = path.replace(`{${name}}`, encodeURIComponent(text(value)));
  }
  const query = new URLSearchParams();
  for (const name of operation.queryParams) {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, text(item));
  }
  const headers: Record<string, string> = {};
  for (const { header, property } of operation.headerParams) {
    const value = rest[property];
    delete rest[property];
    if (value === undefined || value === null) continue;
    const sent = text(value);
    // An HTTP header carries printable ASCII only; anything else could not be sent at all.
    if (!/^[\x20-\x7e]*$/.test(sent)) throw new ToolInputError(`${property}: printable ASCII characters only`);
    headers[header] = sent;
  }
  const search = query.toString();
  const request: ApiRequest = { method: operation.method, path: search ? `${path}?${search}` : path, headers };
  // The rest is the body (unknownArgument refused any name the tool does not declare first).
  if (operation.body === 'fields') {
    if (Object.keys(rest).length || operation.bodyRequired) request.body = rest;
  } else if (operation.body === 'whole') {
    if (rest.body !== undefined) request.body = rest.body;
  }
  return request;
}

interface ErrorBody {
  error?: { message?: unknown; code?: unknown };
}

function errorResult(details: { status: number; code?: string; message: string; retryAfterSeconds?: number }): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(details) }], structuredContent: details };
}

export function inputErrorResult(message: string): CallToolResult {
  return errorResult({ status: 400, message });
}

export function unreachableResult(message: string): CallToolResult {
  return errorResult({ status: 502, message });
}

/**
 * The API's message with fields named as the tool's arguments: the route says query.limit,
 * path.id or header.x-request-id where the tool's input is limit, id or idempotencyKey.
 */
export function argumentMessage(message: string, operation: Pick<ToolOperation, 'headerParams'>): string {
  let named = message.replace(/\b(?:query|path)\.(?=[A-Za-z_])/g, '');
  for (const { header, property } of operation.headerParams) named = named.replaceAll(`header.${header}`, property);
  return named;
}

export function resultOf(answer: ApiAnswer, request: ApiRequest, operation: Pick<ToolOperation, 'headerParams'> = { headerParams: [] }): CallToolResult {
  const json = /^application\/(?:[\w.+-]+\+)?json\b/i.test(answer.contentType);
  if (answer.status >= 400) {
    let error: ErrorBody['error'];
    try {
      error = json ? (JSON.parse(answer.body.toString('utf8')) as ErrorBody).error : undefined;
    } catch {
      error = undefined;
    }
    const retryAfter = answer.retryAfter === null ? NaN : Number(answer.retryAfter);
    return errorResult({
      status: answer.status,
      ...(typeof error?.code === 'string' ? { code: error.code } : {}),
      message: typeof error?.message === 'string' ? argumentMessage(error.message, operation) : `${request.method} ${request.path} answered ${answer.status}`,
      ...(Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
    });
  }
  if (answer.body.length === 0) return { content: [{ type: 'text', text: `Done (${answer.status}, no content).` }] };
  if (json) {
    const raw = answer.body.toString('utf8');
    const value: unknown = JSON.parse(raw);
    return { content: [{ type: 'text', text: raw }], ...(value && typeof value === 'object' && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {}) };
  }
  if (/^text\//i.test(answer.contentType)) return { content: [{ type: 'text', text: answer.body.toString('utf8') }] };
  // Bytes (a WhatsApp media download): an image as such, anything else as an embedded blob.
  const mimeType = answer.contentType.split(';')[0]?.trim() || 'application/octet-stream';
  const data = answer.body.toString('base64');
  if (mimeType.startsWith('image/')) return { content: [{ type: 'image', data, mimeType }] };
  return { content: [{ type: 'resource', resource: { uri: `socialapi:/api/v1${request.path}`, mimeType, blob: data } }] };
}
