// "Analytics (sandbox)" in docs/guides/analytics.md, as a newcomer runs it after "Your first posts": instagram
// connected through the consent page, the photo post published by the publishing guide's own blocks, then
// the analytics block as it is: the post's insights (live, then narrowed and refreshed), the
// account's insights, demographics, followers online and a best time with its basis, each read
// from the sandbox's insights. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SandboxState } from '../src/sandbox/index.ts';
import type { TestApp } from './harness/app.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { bash, readmeExamples } from './harness/readme.ts';
import { waitFor } from './harness/wait.ts';

interface TargetInsights {
  platform: string;
  source: string;
  takenAt: string | null;
  metrics: Record<string, number>;
  unsupported: string[];
  errors: unknown[];
}

for (const dialect of DIALECTS) {
  describe(`guide: analytics [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    let instagram: string;
    before(async () => {
      t = await startConnectApp(dialect, { worker: true, env: { LOG_LEVEL: 'silent' } });
      ({ key } = await t.tenant());
      const walk = await walkConnect(t, key, 'instagram', { redirectUrl: CLIENT_REDIRECT });
      instagram = walk.location?.searchParams.get('accountId') ?? '';
      assert.ok(instagram, 'instagram connected');
    });
    after(() => t.close());

    test("the analytics block reads the post's and the account's insights and a best time", async () => {
      const examples = readmeExamples();
      const env = { BASE: t.url, KEY: key, INSTAGRAM: instagram };
      const published = await bash(['set -euo pipefail', examples.get('setup') ?? '', examples.get('instagram') ?? ''].join('\n'), env);
      assert.equal(published.code, 0, published.stderr);
      const postId = (JSON.parse(published.stdout.trim().split('\n').at(-1) ?? '{}') as { post: { id: string } }).post.id;
      const target = await waitFor(
        async () => {
          const body = (await (await t.request(`/api/v1/posts/${postId}`, { key })).json()) as { post: { status: string; targets: Array<{ platformPostId: string | null }> } };
          return body.post.status === 'published' ? body.post.targets[0] : null;
        },
        60_000,
        'the instagram post to be published',
        100,
      );
      const seq = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      const run = await bash(['set -euo pipefail', examples.get('analytics') ?? ''].join('\n'), { ...env, POST: postId });
      assert.equal(run.code, 0, `the guide's analytics block failed:\n${run.stderr}\n${run.stdout}`);
      const answers = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.equal(answers.length, 6, run.stdout);
      const [post, narrowed, account, demographics, online, best] = answers;
      const live = (post?.targets as TargetInsights[])[0];
      assert.deepEqual([live?.platform, live?.source, live?.errors], ['instagram', 'live', []]);
      assert.ok(Object.keys(live?.metrics ?? {}).includes('reach'), JSON.stringify(live));
      const fresh = (narrowed?.targets as TargetInsights[])[0];
      assert.deepEqual([fresh?.source, Object.keys(fresh?.metrics ?? {}).sort()], ['live', ['comments', 'likes', 'saves']]);
      assert.deepEqual((account?.metrics as Array<{ metric: string }>).map((m) => m.metric), ['reach', 'views', 'followers']);
      assert.equal(demographics?.breakdown, 'country');
      assert.equal((online?.hours as unknown[]).length, 24);
      assert.deepEqual([best?.basis, best?.posts], ['online_followers', 1]);
      // What reached the sandbox: the media's insights on the Instagram Login host.
      const insights = t.sandbox.journal.list({ after: seq }).filter((e) => e.path.endsWith('/insights'));
      assert.ok(insights.some((e) => e.host === 'graph.instagram.com' && e.path.endsWith(`/${target?.platformPostId ?? ''}/insights`)), JSON.stringify(insights.map((e) => [e.host, e.path])));
    });
  });
}
