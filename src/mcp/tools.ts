// One tool per API operation, derived from the OpenAPI document the routes' own schemas make (the
// document is read at start, so a new route is a new tool with nothing else to declare). The
// input is the operation's path, query and header parameters and its JSON body fields, merged
// into one object; `operation` remembers where each goes back when the tool is called.
import { inlineRefs } from './inline-refs.ts';
import { toolName } from './names.ts';
import { HTTP_METHODS, type JsonSchema, type OpenApiDocument, type OpenApiOperation } from './openapi-shape.ts';
import { optionsByReference } from './platform-options.ts';
import { HEADER_PROPERTIES, TOOL_NOTES } from './tool-notes.ts';
import { toolsetOf } from './toolsets.ts';

export interface ToolOperation {
  method: string;
  /** The path template relative to /api/v1, with {name} placeholders. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Each header parameter and the input property that carries it. */
  headerParams: Array<{ header: string; property: string }>;
  /**
   * How the JSON body is given: none; as top-level fields of the input (an object body); or
   * whole, under the input's `body` (any other body schema).
   */
  body: 'none' | 'fields' | 'whole';
  /** Send a body even when no body field was given (the route requires one). */
  bodyRequired: boolean;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
}

export interface ApiTool {
  name: string;
  operationId: string;
  /** The toolset that lists it (src/mcp/toolsets.ts). */
  toolset: string;
  description: string;
  /** Closed: an argument the tool does not list is refused (callTool), as the API refuses unknown fields. */
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[]; additionalProperties: false };
  annotations: ToolAnnotations;
  operation: ToolOperation;
}

/** The tools of every operation of the document, in its order. */
export function toolsFromOpenApi(doc: OpenApiDocument): ApiTool[] {
  const components = doc.components?.schemas ?? {};
  const tools: ApiTool[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const tool = toolFor(method.toUpperCase(), path, op as OpenApiOperation & { operationId: string }, components);
      if (names.has(tool.name)) throw new Error(`two operations make the tool name ${tool.name}`);
      names.add(tool.name);
      tools.push(tool);
    }
  }
  return tools;
}

/** The body's object schema, when its fields can sit beside the parameters. */
function objectBody(schema: JsonSchema): { schema: JsonSchema; optional: boolean } | null {
  if (schema.type === 'object' && schema.properties) return { schema, optional: false };
  // A body that may also be null (or absent): its object branch, every field optional.
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!branches) return null;
  const objects = branches.filter((b) => b.type === 'object' && b.properties);
  const others = branches.filter((b) => !objects.includes(b));
  if (objects.length !== 1 || !others.every((b) => b.type === 'null')) return null;
  return { schema: objects[0] as JsonSchema, optional: true };
}

function toolFor(method: string, path: string, op: OpenApiOperation & { operationId: string }, components: Record<string, JsonSchema>): ApiTool {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const operation: ToolOperation = { method, path, pathParams: [], queryParams: [], headerParams: [], body: 'none', bodyRequired: false };

  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  if (bodySchema) {
    const resolved = optionsByReference(inlineRefs(bodySchema, components)) as JsonSchema;
    operation.bodyRequired = op.requestBody?.required ?? false;
    const fields = objectBody(resolved);
    if (fields) {
      operation.body = 'fields';
      for (const [name, schema] of Object.entries(fields.schema.properties as Record<string, JsonSchema>)) properties[name] = schema;
      if (!fields.optional && operation.bodyRequired) for (const name of (fields.schema.required as string[] | undefined) ?? []) required.add(name);
    } else {
      operation.body = 'whole';
      properties.body = resolved;
      if (operation.bodyRequired) required.add('body');
    }
  }

  // Parameters after the body: a path parameter must be one, whatever a body field is called;
  // a query parameter also allowed in the body (accountId of the comment switches) stays a body
  // field, which the route reads first.
  for (const param of op.parameters ?? []) {
    if (param.in === 'cookie') continue;
    const bodyField = param.in === 'query' && operation.body === 'fields' && param.name in properties;
    if (param.in === 'path') operation.pathParams.push(param.name);
    else if (param.in === 'query' && !bodyField) operation.queryParams.push(param.name);
    // Header parameters as tools name them: a name an agent reads as what it is for; any other header keeps its own.
    const header = param.in === 'header' ? HEADER_PROPERTIES[param.name] : undefined;
    const property = param.in === 'header' ? (header?.property ?? param.name) : param.name;
    if (param.in === 'header') operation.headerParams.push({ header: param.name, property });
    if (bodyField) continue;
    if (param.in !== 'path' && property in properties) throw new Error(`${op.operationId}: ${param.in} parameter ${property} has the name of a body field`);
    const schema = inlineRefs(param.schema ?? {}, components) as JsonSchema;
    const description = header?.description ?? (schema.description ? undefined : param.description);
    properties[property] = description ? { ...schema, description } : schema;
    if (param.required || param.in === 'path') required.add(property);
    else required.delete(property);
  }

  const note = TOOL_NOTES[op.operationId] ?? {};
  const readOnly = note.readOnly ?? method === 'GET';
  const summary = note.summary ?? op.summary ?? op.operationId;
  const description = [summary.endsWith('.') ? summary : `${summary}.`, op.description, `(${method} /api/v1${path})`].filter(Boolean).join(' ');
  return {
    name: toolName(op.operationId),
    operationId: op.operationId,
    toolset: toolsetOf(op.tags, path),
    description,
    inputSchema: { type: 'object', properties, ...(required.size ? { required: [...required] } : {}), additionalProperties: false },
    annotations: { readOnlyHint: readOnly, destructiveHint: method !== 'GET' && !readOnly },
    operation,
  };
}
