// "Ads (sandbox)" in docs/guides/ads.md, as a newcomer runs it after "Your first posts": facebook connected
// through the consent page, the photo post published by the publishing guide's own blocks, then the ads
// block as it is: the ad account listed (and named by the calls that need it), the post
// boosted, a campaign, an ad set, a creative and an ad built by hand, an audience filled,
// insights read. Everything in the sandbox is PAUSED and
// the audience got hashes only. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { SandboxState } from '../src/sandbox/index.ts';
import type { TestApp } from './harness/app.ts';
import { CLIENT_REDIRECT, startConnectApp, walkConnect } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { bash, readmeExamples } from './harness/readme.ts';
import { waitFor } from './harness/wait.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

for (const dialect of DIALECTS) {
  describe(`guide: ads [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    let facebook: string;
    before(async () => {
      t = await startConnectApp(dialect, { worker: true, env: { LOG_LEVEL: 'silent' } });
      ({ key } = await t.tenant());
      const books = [...t.sandbox.people.pages.values()].find((p) => p.name === 'Sandbox Books')?.id ?? '';
      const walk = await walkConnect(t, key, 'facebook', { redirectUrl: CLIENT_REDIRECT }, { untick: [books] });
      facebook = walk.location?.searchParams.get('accountId') ?? '';
      assert.ok(facebook, 'facebook connected');
    });
    after(() => t.close());

    test('the ads block boosts the post and builds an ad by hand, all PAUSED, with hashed audience members', async () => {
      const examples = readmeExamples();
      const env = { BASE: t.url, KEY: key, FACEBOOK: facebook };
      const published = await bash(['set -euo pipefail', examples.get('setup') ?? '', examples.get('facebook') ?? ''].join('\n'), env);
      assert.equal(published.code, 0, published.stderr);
      const postId = (JSON.parse(published.stdout.trim().split('\n').at(-1) ?? '{}') as { post: { id: string } }).post.id;
      await waitFor(
        async () => ((await (await t.request(`/api/v1/posts/${postId}`, { key })).json()) as { post: { status: string } }).post.status === 'published' || null,
        60_000,
        'the facebook post to be published',
        100,
      );

      const run = await bash(['set -euo pipefail', examples.get('ads') ?? ''].join('\n'), { ...env, POST: postId });
      assert.equal(run.code, 0, `the guide's ads block failed:\n${run.stderr}\n${run.stdout}`);
      const answers = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.equal(answers.length, 4, run.stdout);
      const [boost, ad, users, insights] = answers;
      const bakery = [...t.sandbox.ads.accounts.values()].find((a) => a.name === 'Sandbox Bakery Ads');
      assert.ok(bakery, 'the sandbox has the ad account');
      assert.equal(boost?.adAccountId, bakery.id, 'the ad account listed first is the one named');
      assert.equal(boost?.status, 'PAUSED');
      assert.equal((ad?.ad as { status: string }).status, 'PAUSED');
      assert.equal(users?.received, 2);
      assert.deepEqual(insights?.rows, []);

      const ads = t.sandbox.ads;
      assert.equal(ads.campaigns.size, 2);
      assert.equal(ads.ads.size, 2);
      for (const object of [...ads.campaigns.values(), ...ads.adsets.values(), ...ads.ads.values()]) assert.equal(object.status, 'PAUSED');
      const audience = [...ads.audiences.values()][0];
      assert.deepEqual([...(audience?.members ?? [])].sort(), [sha('dana@example.com'), sha('15550109999')].sort());
      assert.ok(!JSON.stringify(t.sandbox.journal.list()).toLowerCase().includes('dana@example.com'));
    });
  });
}
