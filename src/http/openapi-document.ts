// The finishing touches @fastify/swagger cannot take from the route schemas, applied once to the
// built document (its transformObject):
// - every response has a description (Fastify's "Default Response" says nothing), written from
//   what the answer holds;
// - the events the service delivers to webhook endpoints are the document's `webhooks`, each body a
//   named component (PostPublishedEvent …), so a generated client types what its receiver gets;
// - platformSpecificData refers to one named component per platform (RedditData, XData …, each
//   definition's publishing.data), closed with additionalProperties: false, so a client generated
//   from the document refuses a misspelt option at compile time. The server's own validation is
//   not changed: the route keeps its open union and the platform validators answer unknown keys
//   with the target's warnings. The document says both.
import { EVENT_DATA } from '../modules/events/catalog.ts';
import { POST_DEFINITIONS } from '../platforms/registry.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const OPTIONS_PROPERTY = 'platformSpecificData';
const REF = '#/components/schemas/';

export const CLOSED_OPTIONS_NOTE =
  'In this document each platform schema is closed (additionalProperties: false), so a client generated from it rejects a misspelt key at compile time; ' +
  "the server itself does not refuse unknown keys here: it skips them and names them in the target's warnings.";

/** Each post platform's options schema, as a named and closed component. */
function optionComponents(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const definition of POST_DEFINITIONS) {
    const data = JSON.parse(JSON.stringify(definition.publishing.data)) as Json;
    const name = typeof data.title === 'string' ? data.title : `${definition.name}Data`;
    out[name] = { ...data, title: name, additionalProperties: false };
  }
  return out;
}

/** The body's platformSpecificData unions, replaced by references to the closed components. */
function typeOptions(schema: unknown, names: string[]): unknown {
  if (Array.isArray(schema)) return schema.map((item) => typeOptions(item, names));
  if (!isObject(schema)) return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = typeOptions(value, names);
  const properties = copy.properties;
  if (isObject(properties) && isObject(properties[OPTIONS_PROPERTY]) && Array.isArray(properties[OPTIONS_PROPERTY].anyOf)) {
    const options = properties[OPTIONS_PROPERTY];
    copy.properties = {
      ...properties,
      [OPTIONS_PROPERTY]: {
        description: `${typeof options.description === 'string' ? `${options.description} ` : ''}${CLOSED_OPTIONS_NOTE}`,
        anyOf: names.map((name) => ({ $ref: `${REF}${name}` })),
      },
    };
  }
  return copy;
}

const STATUS_WORDS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

function refName(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith(REF)) return schema.$ref.slice(REF.length);
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return refName(schema.allOf[0]);
  return undefined;
}

/** A sentence about an answer, from its schema: "OK: the Post (`post`)." */
export function describeAnswer(status: string, schema: unknown): string {
  const word = STATUS_WORDS[status] ?? 'Success';
  const named = refName(schema);
  if (named) return `${word}: the ${named}.`;
  if (!isObject(schema) || !isObject(schema.properties)) return `${word}.`;
  const entries = Object.entries(schema.properties);
  if (entries.length === 1 && entries[0]?.[0] === 'ok') return `${word}: done.`;
  const parts = entries.map(([name, property]) => {
    const one = refName(property);
    if (one) return `the ${one} (\`${name}\`)`;
    const many = isObject(property) && property.type === 'array' ? refName(property.items) : undefined;
    if (many) return `a list of ${many} (\`${name}\`)`;
    return `\`${name}\``;
  });
  return `${word}: ${parts.join(', ')}.`;
}

function describeResponses(operation: Json): void {
  const responses = operation.responses;
  if (!isObject(responses)) return;
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response) || (response.description !== undefined && response.description !== 'Default Response')) continue;
    const content = isObject(response.content) ? response.content : {};
    const json = isObject(content['application/json']) ? content['application/json'] : {};
    response.description = describeAnswer(status, json.schema);
  }
}

const eventName = (type: string) => `${type.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Event`;

/** One envelope per event (the body send-job.ts signs), and their union. */
function eventComponents(): { schemas: Record<string, Json>; webhooks: Json } {
  const schemas: Record<string, Json> = {};
  const webhooks: Json = {};
  for (const [type, data] of Object.entries(EVENT_DATA)) {
    const name = eventName(type);
    schemas[name] = {
      title: name,
      type: 'object',
      description: `The body of a ${type} delivery, signed with the endpoint's secret (X-SocialAPI-Signature: HMAC-SHA256 of "<X-SocialAPI-Timestamp>.<body>").`,
      required: ['id', 'event', 'createdAt', 'data'],
      properties: {
        id: { type: 'string', description: 'The event id; the same on every retry of it.' },
        event: { type: 'string', enum: [type] },
        createdAt: { type: 'string', format: 'date-time' },
        data: JSON.parse(JSON.stringify(data)) as Json,
      },
      additionalProperties: false,
    };
    webhooks[type] = {
      post: {
        operationId: `on${name}`,
        summary: `${type}, delivered to each endpoint subscribed to it`,
        tags: ['Webhooks'],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `${REF}${name}` } } } },
        responses: {
          200: { description: 'Any 2xx acknowledges the delivery.' },
          400: { description: 'Anything else (or no answer within the timeout) is retried on the delivery schedule.' },
        },
      },
    };
  }
  return { schemas, webhooks };
}

/** The document, finished: described answers and typed platform options. */
export function finishDocument<T>(document: T): T {
  const doc = document as Json;
  const components: Json = isObject(doc.components) ? doc.components : (doc.components = {});
  const schemas: Json = isObject(components.schemas) ? components.schemas : (components.schemas = {});
  const options = optionComponents();
  const names = Object.keys(options);
  for (const [name, schema] of Object.entries(options)) schemas[name] = schema;
  const events = eventComponents();
  Object.assign(schemas, events.schemas);
  doc.webhooks = events.webhooks;
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      describeResponses(operation);
      const body = operation.requestBody;
      if (isObject(body) && isObject(body.content)) {
        for (const media of Object.values(body.content)) if (isObject(media) && media.schema !== undefined) media.schema = typeOptions(media.schema, names);
      }
    }
  }
  return document;
}
