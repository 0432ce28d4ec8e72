// The tool generator on documents made for the cases today's routes do not all show: a body that
// is not an object, a name both in the query and the body, references inlined, a recursive
// schema refused, names that would collide; and how arguments go back to path, query, header
// and body.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { argumentMessage, requestFor, ToolInputError } from '../src/mcp/call.ts';
import { toolName } from '../src/mcp/names.ts';
import type { OpenApiDocument } from '../src/mcp/openapi-shape.ts';
import { toolsFromOpenApi } from '../src/mcp/tools.ts';
import { parseToolsets, toolsetOf, ToolsetError } from '../src/mcp/toolsets.ts';

const doc: OpenApiDocument = {
  components: { schemas: { Tag: { $id: 'Tag', type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } },
  paths: {
    '/things/{id}': {
      post: {
        operationId: 'tagThing',
        summary: 'Tag a thing',
        parameters: [
          { in: 'path', name: 'id', required: true, schema: { type: 'string' } },
          { in: 'query', name: 'accountId', schema: { type: 'string' } },
          { in: 'query', name: 'dryRun', schema: { type: 'boolean' } },
          { in: 'header', name: 'x-request-id', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['tag'], properties: { tag: { $ref: '#/components/schemas/Tag', description: 'The tag.' }, accountId: { type: 'string' } } } } } },
      },
    },
    '/lists': {
      put: { operationId: 'replaceList', summary: 'Replace the list', requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } },
      get: { operationId: 'listLists', summary: 'Lists', parameters: [{ in: 'query', name: 'ids', schema: { type: 'array', items: { type: 'string' } } }] },
    },
  },
};

describe('tools from an API document', () => {
  const tools = toolsFromOpenApi(doc);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  test('names are the operationIds in snake_case', () => {
    assert.deepEqual(tools.map((tool) => tool.name), ['tag_thing', 'list_lists', 'replace_list']);
    assert.equal(toolName('getWhatsAppMedia'), 'get_whatsapp_media');
    assert.equal(toolName('listAccountHealth'), 'list_account_health');
  });

  test('parameters and body fields merge into one input; references are inlined', () => {
    const tool = byName.get('tag_thing');
    assert.ok(tool);
    assert.deepEqual(Object.keys(tool.inputSchema.properties).sort(), ['accountId', 'dryRun', 'id', 'idempotencyKey', 'tag']);
    assert.deepEqual(tool.inputSchema.properties.tag, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], description: 'The tag.' });
    assert.deepEqual(new Set(tool.inputSchema.required), new Set(['tag', 'id']));
    assert.deepEqual(tool.annotations, { readOnlyHint: false, destructiveHint: true });
    assert.match(tool.description, /^Tag a thing\. \(POST \/api\/v1\/things\/\{id\}\)$/);
  });

  test('arguments go back where the operation takes them', () => {
    const tool = byName.get('tag_thing');
    assert.ok(tool);
    const request = requestFor(tool.operation, { id: 'a b', accountId: 'acc_1', dryRun: true, idempotencyKey: 'k1', tag: { name: 'n' }, extra: 1 });
    // accountId is a body field as well as a query parameter: it goes in the body.
    assert.deepEqual(request, { method: 'POST', path: '/things/a%20b?dryRun=true', headers: { 'x-request-id': 'k1' }, body: { accountId: 'acc_1', tag: { name: 'n' }, extra: 1 } });
    assert.throws(() => requestFor(tool.operation, { tag: { name: 'n' } }), (error: unknown) => error instanceof ToolInputError && error.message === 'id: required');
    const list = byName.get('list_lists');
    assert.ok(list);
    assert.deepEqual(requestFor(list.operation, { ids: ['a', 'b'] }), { method: 'GET', path: '/lists?ids=a&ids=b', headers: {} });
    assert.deepEqual(list.annotations, { readOnlyHint: true, destructiveHint: false });
  });

  test('x-request-id is the input idempotencyKey; another header keeps its name', () => {
    const withHeader = (name: string): OpenApiDocument => ({
      paths: { '/x': { post: { operationId: 'makeX', parameters: [{ in: 'header', name, description: 'Given once.', schema: { type: 'string' } }] } } },
    });
    const [keyed] = toolsFromOpenApi(withHeader('x-request-id'));
    assert.ok(keyed);
    // The tool's own words for it, shorter than a route's.
    assert.deepEqual(keyed.inputSchema.properties, { idempotencyKey: { type: 'string', description: 'Idempotency key (24 hours): a retry with the same key never writes twice.' } });
    assert.deepEqual(requestFor(keyed.operation, { idempotencyKey: 'k2' }).headers, { 'x-request-id': 'k2' });
    assert.throws(() => requestFor(keyed.operation, { idempotencyKey: 'a\u0000b' }), (error: unknown) => error instanceof ToolInputError && error.message === 'idempotencyKey: printable ASCII characters only');
    const [other] = toolsFromOpenApi(withHeader('x-trace'));
    assert.ok(other);
    assert.deepEqual(requestFor(other.operation, { 'x-trace': 't' }).headers, { 'x-trace': 't' });
  });

  test('a body that is not an object is the input field body', () => {
    const tool = byName.get('replace_list');
    assert.ok(tool);
    assert.deepEqual(tool.inputSchema, { type: 'object', properties: { body: { type: 'array', items: { type: 'string' } } }, required: ['body'], additionalProperties: false });
    assert.deepEqual(requestFor(tool.operation, { body: ['x'] }).body, ['x']);
  });

  test('a recursive schema and colliding names stop the start', () => {
    const recursive: OpenApiDocument = {
      components: { schemas: { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } } },
      paths: { '/n': { post: { operationId: 'makeNode', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } },
    };
    assert.throws(() => toolsFromOpenApi(recursive), /refers to itself/);
    const twins: OpenApiDocument = { paths: { '/a': { get: { operationId: 'getA' } }, '/b': { get: { operationId: 'get_a' } } } };
    assert.throws(() => toolsFromOpenApi(twins), /two operations make the tool name get_a/);
  });

  test('a tool\'s toolset is its first tag (direct messages are the inbox), else its path', () => {
    assert.equal(toolsetOf(['Posts'], '/posts'), 'posts');
    assert.equal(toolsetOf(['Direct messages'], '/inbox/conversations'), 'inbox');
    assert.equal(toolsetOf(['WhatsApp'], '/whatsapp/connect'), 'whatsapp');
    assert.equal(toolsetOf(undefined, '/things/{id}'), 'things');
    assert.equal(byName.get('tag_thing')?.toolset, 'things');
  });

  test('toolsets: the default set, all, a list, and an unknown name refused', () => {
    const known = ['accounts', 'media', 'posts', 'inbox', 'ads'];
    assert.deepEqual(parseToolsets(undefined, known), { all: false, names: new Set(['accounts', 'media', 'posts', 'inbox']) });
    assert.deepEqual(parseToolsets(' ', known), parseToolsets(undefined, known));
    assert.deepEqual(parseToolsets('ads,all', known), { all: true });
    assert.deepEqual(parseToolsets('Ads, posts', known), { all: false, names: new Set(['ads', 'posts']) });
    assert.throws(() => parseToolsets('adz', known), (error: unknown) => error instanceof ToolsetError && /^toolsets: unknown toolset adz \(did you mean ads\?\); the toolsets are accounts, media, posts, inbox, ads, all$/.test(error.message));
  });

  test('API messages name the tool\'s arguments', () => {
    const operation = { headerParams: [{ header: 'x-request-id', property: 'idempotencyKey' }] };
    assert.equal(argumentMessage('query.limit: must be >= 1', operation), 'limit: must be >= 1');
    assert.equal(argumentMessage('path.id: too long', operation), 'id: too long');
    assert.equal(argumentMessage('header.x-request-id: too long', operation), 'idempotencyKey: too long');
    assert.equal(argumentMessage('accountId in the body or the query. Then', operation), 'accountId in the body or the query. Then');
  });
});
