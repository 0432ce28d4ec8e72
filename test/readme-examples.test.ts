// "Your first posts" in docs/guides/publishing.md, as a newcomer runs it: one account connected per platform the
// way a browser does (the sandbox's consent page and the service's callback, or the service's own sign-in page), then the guide's
// marked shell blocks run as they are with bash and curl (its photo upload included), and every
// post they create ends `published` on its platform. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SandboxState } from '../src/sandbox/index.ts';
import type { TestApp } from './harness/app.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { bash, examplesIn } from './harness/readme.ts';
import { startConnect, submitPage } from './bluesky-support.ts';
import { waitFor } from './harness/wait.ts';

const PLATFORMS = ['reddit', 'instagram', 'facebook', 'threads', 'tiktok', 'x', 'linkedin', 'youtube', 'pinterest', 'bluesky'] as const;

interface PostBody {
  post: { id: string; status: string; targets: Array<{ platform: string; status: string; platformPostId: string | null; url: string | null; error: string | null; warnings: unknown[] }> };
}

const GUIDE = 'docs/guides/publishing.md';

test('the publishing guide marks a setup block and one POST /api/v1/posts example per platform', () => {
  const names = [...examplesIn(GUIDE).keys()];
  assert.deepEqual(names.sort(), ['setup', ...PLATFORMS].sort());
});

/** Selects the option named `name` of a pending connection; the account id it connected. */
async function selectOption(t: TestApp, key: string, pendingId: string, name: string): Promise<string | undefined> {
  const pending = (await (await t.request(`/api/v1/connect/pending/${pendingId}`, { key })).json()) as { pending: { options: Array<{ id: string; name: string }> } };
  const option = pending.pending.options.find((o) => o.name === name);
  assert.ok(option, `${name} is offered: ${JSON.stringify(pending)}`);
  const selected = await t.request(`/api/v1/connect/pending/${pendingId}/select`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionIds: [option.id] }) });
  const body = (await selected.json()) as { accounts?: Array<{ id: string }> };
  return body.accounts?.[0]?.id;
}

for (const dialect of DIALECTS) {
  describe(`publishing guide, first posts [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    const accounts: Record<string, string> = {};
    before(async () => {
      t = await startConnectApp(dialect, { worker: true, env: { LOG_LEVEL: 'silent' } });
      ({ key } = await t.tenant());
      // As the guide says: facebook with "Sandbox Books" unticked, so "Sandbox Bakery" connects at once.
      const books = [...t.sandbox.people.pages.values()].find((page) => page.name === 'Sandbox Books')?.id ?? '';
      for (const platform of PLATFORMS) {
        if (platform === 'bluesky') {
          // As the guide says: the service's own page, with the seeded handle and app password.
          const { pageUrl, state } = await startConnect(t, key, { redirectUrl: CLIENT_REDIRECT });
          const { location } = await submitPage(pageUrl, state, 'sandbox.bsky.social', 'sand-box0-app0-pass');
          accounts.bluesky = location?.searchParams.get('accountId') ?? '';
          assert.ok(accounts.bluesky, `bluesky connected: ${location?.toString() ?? 'no redirect'}`);
          continue;
        }
        const walk = await walkConnect(t, key, platform, { redirectUrl: CLIENT_REDIRECT }, platform === 'facebook' ? { untick: [books] } : {});
        // As the guide says: linkedin's consent ends in a choice, where "Sandbox Bakery" is selected.
        const pendingId = platform === 'linkedin' ? walk.location?.searchParams.get('pendingId') : null;
        const accountId = pendingId ? await selectOption(t, key, pendingId, 'Sandbox Bakery') : walk.location?.searchParams.get('accountId');
        assert.ok(accountId, `${platform} connected: ${walk.location?.toString() ?? (await walk.response.text())}`);
        accounts[platform] = accountId;
      }
    });
    after(() => t.close());

    test('each example publishes, on the sandbox as it is seeded', async () => {
      const examples = examplesIn(GUIDE);
      const script = ['set -euo pipefail', examples.get('setup') ?? '', ...PLATFORMS.map((p) => `echo "@@example ${p}"\n${examples.get(p) ?? ''}`)].join('\n');
      const env = { BASE: t.url, KEY: key, ...Object.fromEntries(PLATFORMS.map((p) => [p.toUpperCase(), accounts[p] ?? ''])) };
      const run = await bash(script, env);
      assert.equal(run.code, 0, `the guide's blocks failed:\n${run.stderr}\n${run.stdout}`);

      const [beforeFirst = '', ...sections] = run.stdout.split('@@example ');
      assert.match(beforeFirst, new RegExp(`^${t.url}/media-files/\\S+\\n$`), 'the setup printed the photo publicUrl');
      const created = new Map<string, string>();
      for (const section of sections) {
        const [platform = '', ...rest] = section.split('\n');
        const answer = JSON.parse(rest.join('\n')) as PostBody;
        assert.equal(answer.post.status, 'queued', `${platform}: ${rest.join('\n')}`);
        assert.deepEqual(answer.post.targets.map((target) => [target.platform, target.warnings]), [[platform, []]], `${platform}: one target, no key skipped`);
        created.set(platform, answer.post.id);
      }
      assert.deepEqual([...created.keys()], [...PLATFORMS]);

      for (const [platform, id] of created) {
        const post = await waitFor(
          async () => {
            const body = (await (await t.request(`/api/v1/posts/${id}`, { key })).json()) as PostBody;
            return ['published', 'failed', 'partial'].includes(body.post.status) ? body.post : null;
          },
          60_000,
          `the ${platform} post to settle`,
          100,
        );
        assert.equal(post.status, 'published', `${platform}: ${JSON.stringify(post.targets)}`);
        assert.ok(post.targets[0]?.platformPostId, `${platform}: the platform's id is kept`);
        // As the guide says: the url opens the post, on the sandbox's own page; the tiktok
        // example is SELF_ONLY, which has no public id and so no url.
        const url = post.targets[0]?.url ?? null;
        if (platform === 'tiktok') {
          assert.equal(url, null, 'a SELF_ONLY tiktok post has no url');
          continue;
        }
        assert.ok(url?.startsWith(`${t.url}/sandbox/`), `${platform}: ${url ?? 'no url'}`);
        const opened = await fetch(url ?? '');
        assert.equal(opened.status, 200, `${platform}: ${url ?? ''}`);
        assert.match(opened.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(await opened.text(), /\(sandbox\)/);
      }
    });
  });
}
