// No silent typos (issue 29, overriding DESIGN §2's "unknown JSON fields are ignored"): every
// documented operation refuses a body field or a query parameter it does not declare, with a
// 400 naming it (errors.ts adds the "did you mean"). It is done here, once, as routes are
// registered: each object of fixed shape in a route's body and query schemas gets
// `additionalProperties: false`, so Ajv refuses what the route did not declare and the OpenAPI
// document (built from the same route options) says so.
//
// Left open: an object that says what its other keys may be (`additionalProperties` true or a
// schema, `patternProperties`: maps, free-form objects, platformSpecificData, whose unknown keys
// are the contract's warnings), and everything inside it; `allOf` (each part lists only its own
// fields, so closing the parts would refuse the whole); `$ref`s (components are shared with the
// answers, which may grow); headers and path parameters; hidden routes (platform webhooks, whose
// bodies and handshakes carry whatever the platform adds).
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { errors, formatField } from './errors.ts';
import type { Api } from './types.ts';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `schema` with every object of fixed shape closed; the route's own schema is not changed. */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (!isSchema(schema)) return schema;
  if ('$ref' in schema || 'allOf' in schema || 'patternProperties' in schema) return schema;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return schema;
  const copy: Schema = { ...schema };
  if (isSchema(schema.properties)) {
    copy.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, closeObjects(property)]));
    copy.additionalProperties = false;
  }
  for (const keyword of ['items', 'prefixItems', 'anyOf', 'oneOf'] as const) {
    if (schema[keyword] !== undefined) copy[keyword] = closeObjects(schema[keyword]);
  }
  return copy;
}

/** A route body as Fastify takes it: one schema, or one per content type under `content`. */
function closeBody(body: unknown): unknown {
  if (!isSchema(body) || !isSchema(body.content)) return closeObjects(body);
  const content = Object.fromEntries(
    Object.entries(body.content).map(([type, entry]) => [type, isSchema(entry) ? { ...entry, schema: closeObjects(entry.schema) } : entry]),
  );
  return { ...body, content };
}

/** An operation without a query schema takes no query parameters. */
const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false };

/** An operation without a body schema takes no body fields: `{}` (or nothing) is all it accepts. */
function bodyFieldsProblem(body: unknown): Error | undefined {
  if (body === undefined || body === null) return undefined;
  if (!isSchema(body)) return errors.invalid('body', 'this operation takes no body');
  const [first] = Object.keys(body);
  return first === undefined ? undefined : errors.invalid(formatField('', [first]), 'unknown field; this operation takes no body');
}

type Hook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;

const refuseBodyFields: Hook = (request, _reply, done) => done(bodyFieldsProblem(request.body));

function withHook(existing: RouteOptions['preValidation'], hook: Hook): RouteOptions['preValidation'] {
  if (existing === undefined) return hook;
  return [...(Array.isArray(existing) ? existing : [existing]), hook] as RouteOptions['preValidation'];
}

/** Closes the body and query schemas of every documented operation registered on `api` after this. */
export function registerStrictInput(api: Api): void {
  api.addHook('onRoute', (route) => {
    const schema = route.schema as Schema | undefined;
    if (!schema || schema.hide === true || typeof schema.operationId !== 'string') return;
    const closed: Schema = { ...schema, querystring: schema.querystring === undefined ? NO_QUERY : closeObjects(schema.querystring) };
    if (schema.body !== undefined) closed.body = closeBody(schema.body);
    else route.preValidation = withHook(route.preValidation, refuseBodyFields);
    route.schema = closed;
  });
}
