// No silent typos (issue 29): a body field, a query parameter, a form field or a tool argument the
// operation does not declare is a 400 naming it, with the declared name it looks like; nothing is
// stored. platformSpecificData keeps its warnings, and the platforms' inbound webhooks stay open.
// On both stores, over HTTP and over MCP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { closestName } from '../src/lib/closest-name.ts';
import { SANDBOX_VERIFY_TOKEN } from '../src/platforms/context.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { callError, httpClient, type McpClient } from './mcp-support.ts';
import { addAccount, createPost, json, startPostsApp, type PostsApp } from './posts-support.ts';
import { POST_PLATFORMS } from '../src/modules/posts/schemas.ts';

const FUTURE = () => new Date(Date.now() + 3600_000).toISOString();

describe('closestName', () => {
  test('suggests a near name, ignoring case, _ and -, and nothing for a far one', () => {
    assert.equal(closestName('schedule', ['content', 'platforms', 'scheduledFor', 'publishNow']), 'scheduledFor');
    assert.equal(closestName('acountId', ['accountId', 'platform']), 'accountId');
    assert.equal(closestName('scheduled_for', ['scheduledFor']), 'scheduledFor');
    assert.equal(closestName('foo', ['url', 'base64', 'fileName']), null);
    assert.equal(closestName('text', ['tag']), null);
    assert.equal(closestName('x'.repeat(5000), ['x']), null);
  });
});

for (const dialect of DIALECTS) {
  describe(`unknown fields are refused [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let organizationId: string;
    let reddit: string;

    const send = (path: string, method: string, body?: unknown) =>
      t.request(`/api/v1${path}`, { key, method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
    const refused = async (res: Response): Promise<string> => {
      const text = await res.text();
      assert.equal(res.status, 400, text);
      return (JSON.parse(text) as { error: { message: string } }).error.message;
    };
    const postCount = async () =>
      Number((await t.runtime.deps.store.db.selectFrom('posts').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow()).n);

    before(async () => {
      t = await startPostsApp(dialect);
      ({ key, organizationId } = await t.tenant());
      reddit = (await addAccount(t, organizationId, 'reddit')).id;
    });
    after(async () => {
      await t?.close();
    });

    test('a misspelt top-level field is a 400 with the name it looks like, and no draft is made', async () => {
      const res = await send('/posts', 'POST', { content: 'hello', platforms: [{ accountId: reddit }], schedule: FUTURE() });
      assert.equal(await refused(res), 'schedule: unknown field (did you mean scheduledFor?)');
      assert.equal(await postCount(), 0);
    });

    test('in nested objects too, and before the required field it was meant to be', async () => {
      const res = await send('/posts', 'POST', { content: 'hello', platforms: [{ acountId: reddit }] });
      assert.equal(await refused(res), 'platforms[0].acountId: unknown field (did you mean accountId?)');
      const far = await send('/posts', 'POST', { content: 'hello', platforms: [{ accountId: reddit, colour: 'red' }] });
      assert.equal(await refused(far), 'platforms[0].colour: unknown field');
      assert.equal(await postCount(), 0);
    });

    test('platformSpecificData keeps its warnings: an unknown key there is skipped, not refused', async () => {
      const { status, body } = await createPost(t, key, { content: 'hello', platforms: [{ accountId: reddit, platformSpecificData: { subreddit: 'test', colour: 'red' } }] });
      assert.equal(status, 201, JSON.stringify(body));
      assert.deepEqual(body.post.targets[0]?.warnings, [{ key: 'colour', message: 'unknown key for reddit; skipped' }]);
    });

    test('a body that may be null or an object: the unknown field is named', async () => {
      const res = await send('/inbox/comments/c_1/hide', 'POST', { acountId: reddit });
      assert.equal(await refused(res), 'acountId: unknown field (did you mean accountId?)');
    });

    test('an operation without a body takes no fields, and {} is still fine', async () => {
      const { body } = await createPost(t, key, { content: 'to delete', platforms: [{ accountId: reddit }] });
      const id = body.post.id;
      assert.equal(await refused(await send(`/posts/${id}`, 'DELETE', { force: true })), 'force: unknown field; this operation takes no body');
      assert.equal(await refused(await send(`/posts/${id}`, 'DELETE', [1])), 'body: this operation takes no body');
      assert.equal((await t.request(`/api/v1/posts/${id}`, { key })).status, 200, 'the post is still there');
      assert.equal((await send(`/posts/${id}`, 'DELETE', {})).status, 200);
      assert.equal((await t.request(`/api/v1/posts/${id}`, { key })).status, 404);
    });

    test('query parameters: an unknown one is a 400 naming it, on operations with and without parameters', async () => {
      assert.equal(await refused(await send('/posts?stauts=draft', 'GET')), 'query.stauts: unknown parameter (did you mean status?)');
      assert.equal(await refused(await send('/accounts/acc_x?verbose=1', 'GET')), 'query.verbose: unknown parameter');
      assert.equal((await send('/posts?status=draft', 'GET')).status, 200);
    });

    test('multipart uploads refuse a form field they do not take, and keep nothing', async () => {
      const data = new FormData();
      data.append('filename', 'a.gif');
      data.append('file', new Blob([Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex')]), 'a.gif');
      const res = await t.request('/api/v1/media', { key, method: 'POST', body: data });
      assert.equal(await refused(res), 'filename: unknown field (did you mean fileName?)');
      const media = await t.runtime.deps.store.db.selectFrom('media').select('id').where('organization_id', '=', organizationId).execute();
      assert.deepEqual(media, []);
    });

    test("the platforms' inbound webhooks stay open: Meta's handshake with a parameter it added", async () => {
      const res = await fetch(`${t.url}/api/v1/platform-webhooks/meta?hub.mode=subscribe&hub.challenge=42&hub.verify_token=${SANDBOX_VERIFY_TOKEN}&hub.extra=1`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '42');
    });

    test('the OpenAPI document says so: every request object of fixed shape is closed, open ones stay open', async () => {
      type Node = Record<string, unknown>;
      const doc = (await (await fetch(`${t.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Node }> } }>> };
      const open: string[] = [];
      const notClosed: string[] = [];
      const walk = (node: unknown, at: string): void => {
        if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}[${i}]`));
        if (typeof node !== 'object' || node === null) return;
        const schema = node as Node;
        if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return void open.push(at);
        if (schema.properties && schema.additionalProperties !== false) notClosed.push(at);
        for (const [key, value] of Object.entries(schema)) if (key !== 'additionalProperties') walk(value, `${at}.${key}`);
      };
      let bodies = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          for (const [type, { schema }] of Object.entries(op.requestBody?.content ?? {})) {
            bodies++;
            walk(schema, `${method.toUpperCase()} ${path} ${type}`);
          }
        }
      }
      assert.ok(bodies > 30);
      assert.deepEqual(notClosed, []);
      // platformSpecificData refers to one component per platform, closed in the document so that
      // generated clients refuse a misspelt key (the server still answers those with warnings).
      assert.deepEqual(open.filter((at) => at.startsWith('POST /posts application/json')), []);
      const options = (doc.paths['/posts']?.post?.requestBody?.content['application/json']?.schema as { properties: { platforms: { items: { properties: { platformSpecificData: { anyOf: Node[] } } } } } })
        .properties.platforms.items.properties.platformSpecificData.anyOf;
      assert.equal(options.length, POST_PLATFORMS.length);
      assert.ok(options.every((branch) => typeof branch.$ref === 'string' && branch.$ref.startsWith('#/components/schemas/')));
      assert.ok(open.some((at) => at.startsWith('POST /whatsapp/accounts/{id}/templates') && at.includes('components')));
    });

    describe('over MCP', () => {
      let mcp: McpClient;
      before(async () => {
        mcp = await httpClient(t, key);
      });
      after(async () => {
        await mcp?.close();
      });

      test('tool inputs are closed, and an unknown argument is refused by its own name', async () => {
        const { tools } = await mcp.client.listTools();
        assert.ok(tools.every((tool) => tool.inputSchema.additionalProperties === false));
        const before = await postCount();
        const error = await callError(mcp, 'create_post', { content: 'hello', platforms: [{ accountId: reddit }], schedule: FUTURE() });
        assert.deepEqual(error, { status: 400, message: 'schedule: unknown argument (did you mean scheduledFor?)' });
        assert.deepEqual(await callError(mcp, 'list_posts', { stauts: 'draft' }), { status: 400, message: 'stauts: unknown argument (did you mean status?)' });
        const nested = await callError(mcp, 'create_post', { content: 'hello', platforms: [{ acountId: reddit }] });
        assert.deepEqual(nested, { status: 400, message: 'platforms[0].acountId: unknown field (did you mean accountId?)' });
        assert.equal(await postCount(), before);
      });
    });
  });
}
