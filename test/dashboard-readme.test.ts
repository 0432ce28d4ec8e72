// The dashboard walk-through of docs/guides/dashboard.md, as a newcomer follows it, on both stores: a key that holds
// its posts for approval (`socialapi keys create --approval`), a reddit account connected through
// the consent page, the guide's post block run as it is (held), a sign-in link printed by
// `socialapi dashboard link`, opened in Chromium, Approve pressed, and the post published in the
// sandbox's reddit with its URL on the Posts page. Skipped without a browser (failed under CI).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { runCli } from './harness/cli.ts';
import { CLIENT_REDIRECT, walkConnect } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { bash, readmeExamples } from './harness/readme.ts';
import { IN_CI } from './harness/services.ts';
import { settled, startPostsApp, type PostsApp } from './posts-support.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const noBrowser = CHROMIUM && existsSync(CHROMIUM) ? false : 'no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH); browser tests skipped';
if (noBrowser && IN_CI) throw new Error(`CI: ${noBrowser}`);

for (const dialect of DIALECTS) {
  describe(`guide: dashboard walk-through [${dialect}]`, { skip: noBrowser || skipReason(dialect) }, () => {
    let t: PostsApp;
    let browser: Browser;
    before(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM ?? '', headless: true, args: ['--no-sandbox'] });
      t = await startPostsApp(dialect);
    });
    after(async () => {
      await browser.close();
      await t.close();
    });

    test('a post held by an approval key is approved in the browser and published in the sandbox', async () => {
      const { organizationId: org } = await t.tenant();
      const store = { DATABASE_URL: t.database.url, DATA_DIR: t.database.dataDir, PUBLIC_BASE_URL: t.url };
      const created = await runCli(['keys', 'create', '--org', org, '--name', 'reviewed', '--approval'], store);
      assert.equal(created.code, 0, created.stderr);
      const key = created.stdout.trim().split('\n').at(-1) ?? '';
      const walk = await walkConnect(t, key, 'reddit', { redirectUrl: CLIENT_REDIRECT });
      const reddit = walk.location?.searchParams.get('accountId') ?? '';
      assert.ok(reddit, 'reddit connected');

      const block = readmeExamples().get('dashboard');
      assert.ok(block, 'the guide marks the dashboard block');
      const run = await bash(['set -euo pipefail', block].join('\n'), { BASE: t.url, KEY: key, REDDIT: reddit });
      assert.equal(run.code, 0, run.stderr);
      const post = (JSON.parse(run.stdout) as { post: { id: string; status: string } }).post;
      assert.equal(post.status, 'pending_approval');

      const printed = await runCli(['dashboard', 'link', '--org', org], store);
      const link = printed.stdout.trim().split('\n').at(-1) ?? '';
      const page = await (await browser.newContext()).newPage();
      await page.goto(link);
      await page.getByRole('article').filter({ hasText: post.id }).getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/done=queued/);
      const published = await settled(t, key, post.id);
      assert.equal(published.status, 'published');
      await page.getByRole('link', { name: 'Posts' }).click();
      const card = page.getByRole('article').filter({ hasText: post.id });
      assert.match((await card.textContent()) ?? '', /published/);
      assert.equal(await card.getByRole('link', { name: published.targets[0]?.url ?? '-' }).count(), 1, 'the post’s URL in the sandbox is linked');
      assert.match((await card.textContent()) ?? '', /Approved by dashboard on/);
    });
  });
}
