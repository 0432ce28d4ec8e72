// The newcomer path through tools alone, on both stores: the configuration
// `socialapi mcp config` prints (stdio with --url, and Streamable HTTP) pasted into the SDK's
// client as a user pastes it into theirs, and stdio against the store; each lists the tools,
// connects a threads account in the sandbox (start_connect gives the authUrl; the test
// walks the consent page as a browser would), see it with list_accounts, upload a picture by
// base64 with create_media, publish a post with it, and follow get_post until it is published.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { followCallback } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { jpeg } from './fixtures/media.ts';
import { openConsent, submitConsent } from './sandbox/helpers.ts';
import { startPostsApp, type PostsApp } from './posts-support.ts';
import { runCli } from './harness/cli.ts';
import { callOk, clientFromEntry, printedEntries, stdioClient, storeEnv, type McpClient } from './mcp-support.ts';

interface Post {
  id: string;
  status: string;
  targets: Array<{ platform: string; status: string; platformPostId: string | null; error: string | null }>;
}

for (const dialect of DIALECTS) {
  describe(`MCP newcomer path [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    before(async () => {
      t = await startPostsApp(dialect);
    });
    after(() => t.close());

    for (const transport of ['printed HTTP configuration', 'printed stdio configuration', 'stdio against the store'] as const) {
      test(`connect, upload, publish and see it published: ${transport}`, async () => {
        const { key } = await t.tenant();
        const printed = await runCli(['mcp', 'config', '--url', t.url], {});
        assert.equal(printed.code, 0, printed.stderr);
        const [stdioEntry, httpEntry, remoteEntry] = printedEntries(printed.stdout);
        assert.ok(stdioEntry?.command && httpEntry?.url, printed.stdout);
        assert.deepEqual(remoteEntry, { url: `${t.url}/mcp` }, 'the OAuth entry is the URL alone');
        const mcp: McpClient =
          transport === 'printed HTTP configuration' ? await clientFromEntry(httpEntry, key) : transport === 'printed stdio configuration' ? await clientFromEntry(stdioEntry, key) : await stdioClient(key, storeEnv(t));
        try {
          const { tools } = await mcp.client.listTools();
          assert.ok(['start_connect', 'list_accounts', 'create_media', 'create_post', 'get_post'].every((name) => tools.some((tool) => tool.name === name)));

          const { authUrl } = await callOk<{ authUrl: string }>(mcp, 'start_connect', { platform: 'threads' });
          const { response } = await followCallback(await submitConsent(await openConsent(authUrl)));
          assert.ok(response.status < 400, `the callback answered ${response.status}`);
          const { accounts } = await callOk<{ accounts: Array<{ id: string; platform: string }> }>(mcp, 'list_accounts');
          assert.equal(accounts.length, 1);
          const account = accounts[0];
          assert.equal(account?.platform, 'threads');

          const { media } = await callOk<{ media: { id: string; publicUrl: string | null } }>(mcp, 'create_media', { base64: jpeg().toString('base64'), fileName: 'hello.jpg' });
          assert.ok(media.publicUrl);
          const created = await callOk<{ post: Post }>(mcp, 'create_post', {
            content: `Hello from an agent over ${transport}`,
            publishNow: true,
            platforms: [{ accountId: account?.id, platformSpecificData: { mediaType: 'IMAGE', mediaUrl: media.publicUrl } }],
          });
          const published = await waitFor(async () => {
            const { post } = await callOk<{ post: Post }>(mcp, 'get_post', { id: created.post.id });
            return ['published', 'failed', 'partial'].includes(post.status) ? post : null;
          }, 20_000, 'the post to settle', 100);
          assert.equal(published.status, 'published', JSON.stringify(published));
          assert.ok(published.targets[0]?.platformPostId);
        } finally {
          await mcp.close();
        }
      });
    }
  });
}
