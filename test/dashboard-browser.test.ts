// The dashboard in a real Chromium (Debian's package, driven by playwright-core), on both stores:
// the sign-in page, signing in by link and a reused link refused, approving with the keyboard and
// rejecting with a reason (the events checked at a real receiver), a form stripped of its CSRF
// token refused with nothing changed, a key created and revoked against the API, another
// organization seeing none of it, labelled controls, and no script or CSP error on any page.
// Under CI a missing browser fails the suite; elsewhere it is skipped with the reason.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { IN_CI } from './harness/services.ts';
import { waitFor } from './harness/wait.ts';
import { getPost, settled, startPostsApp, type PostsApp } from './posts-support.ts';
import { heldPost, json, signInLink } from './dashboard-support.ts';
import { authorizeUrl, pkce, registeredClient, standardParams } from './mcp-oauth-support.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const noBrowser = CHROMIUM && existsSync(CHROMIUM) ? false : 'no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH); browser tests skipped';
if (noBrowser && IN_CI) throw new Error(`CI: ${noBrowser}`);
if (noBrowser) process.stderr.write(`dashboard-browser: ${noBrowser}\n`);

for (const dialect of DIALECTS) {
  describe(`dashboard in Chromium [${dialect}]`, { skip: noBrowser || skipReason(dialect) }, () => {
    let t: PostsApp;
    let browser: Browser;
    let receiver: Receiver;
    let org: string;
    let key: string;
    const problems: string[] = [];

    before(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM ?? '', headless: true, args: ['--no-sandbox'] });
      t = await startPostsApp(dialect);
      receiver = await new Receiver().start();
      ({ organizationId: org, key } = await t.tenant({ approvalRequired: true }));
      const hook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: json, body: JSON.stringify({ url: receiver.url, events: ['post.approved', 'post.rejected'] }) });
      assert.equal(hook.status, 201);
    });
    after(async () => {
      await browser.close();
      await receiver.stop();
      await t.close();
    });

    /** A fresh browser profile whose console errors and CSP refusals are collected. */
    async function newPage(): Promise<Page> {
      const context = await browser.newContext();
      const page = await context.newPage();
      // Refused loads are answers the tests ask for (410, 403, 404); CSP refusals and script errors are not.
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      return page;
    }

    async function signIn(organizationId: string, email: string): Promise<Page> {
      const page = await newPage();
      await page.goto(await signInLink(t, organizationId, email));
      assert.equal(new URL(page.url()).pathname, '/dashboard/approvals');
      return page;
    }

    const event = (type: string, postId: string) =>
      waitFor(() => receiver.received.map((r) => JSON.parse(r.body) as { event: string; data: unknown }).find((e) => e.event === type && JSON.stringify(e.data).includes(postId)), 10_000, `${type} at the receiver`);

    test('without a session the dashboard shows how to sign in; a link signs in once', async () => {
      const page = await newPage();
      await page.goto(`${t.url}/dashboard/posts`);
      assert.equal(new URL(page.url()).pathname, '/dashboard/signin');
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Sign in to the dashboard');
      assert.match((await page.locator('pre').textContent()) ?? '', /socialapi dashboard link --org ORG_ID/);
      const link = await signInLink(t, org, 'ana@example.com');
      await page.goto(link);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Approvals');
      assert.match((await page.locator('header.top').textContent()) ?? '', /ana@example\.com/);
      const cookies = await page.context().cookies();
      assert.deepEqual(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path]), [['socialapi_dashboard', true, 'Lax', '/dashboard']]);
      const other = await newPage();
      const reused = await other.goto(link);
      assert.equal(reused?.status(), 410);
      assert.match((await other.locator('main').textContent()) ?? '', /already used/);
    });

    test('a reviewer approves with the keyboard and rejects with a reason; the receiver gets both events and the post publishes', async () => {
      const approve = await heldPost(t, key, org, 'Launch day <b>now</b>');
      const reject = await heldPost(t, key, org, 'Off-brand draft');
      const page = await signIn(org, 'ana@example.com');
      const card = page.getByRole('article').filter({ hasText: approve.id });
      assert.equal(await card.locator('.content').textContent(), 'Launch day <b>now</b>', 'shown as text, not markup');
      assert.equal(await card.locator('.content b').count(), 0);
      assert.match((await page.getByRole('link', { name: /Approvals/ }).textContent()) ?? '', /2/);

      await card.getByRole('button', { name: 'Approve' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/done=queued/);
      assert.match((await page.getByRole('status').textContent()) ?? '', new RegExp(`Approved ${approve.id}`));
      assert.deepEqual((await event('post.approved', approve.id)).data, { postId: approve.id, status: 'queued' });
      assert.equal((await settled(t, key, approve.id)).status, 'published');

      const rejectCard = page.getByRole('article').filter({ hasText: reject.id });
      await rejectCard.getByLabel('Reason for rejecting (optional)').fill('Not our tone');
      await rejectCard.getByRole('button', { name: 'Reject' }).click();
      await page.waitForURL(/done=rejected/);
      assert.deepEqual((await event('post.rejected', reject.id)).data, { postId: reject.id, status: 'rejected' });
      assert.equal(await page.getByRole('article').count(), 0);
      assert.match((await page.locator('.empty').textContent()) ?? '', /Nothing is waiting/);

      await page.getByRole('link', { name: 'Posts' }).click();
      await page.getByLabel('Status').selectOption('rejected');
      await page.getByRole('button', { name: 'Filter' }).click();
      const rejected = page.getByRole('article').filter({ hasText: reject.id });
      assert.match((await rejected.textContent()) ?? '', /Rejected by ana@example\.com on .* reason: “Not our tone”/);
    });

    test('a form stripped of its CSRF token is refused and changes nothing', async () => {
      const post = await heldPost(t, key, org, 'Guarded');
      const page = await signIn(org, 'ana@example.com');
      const card = page.getByRole('article').filter({ hasText: post.id });
      // The script runs in the page (this project's TypeScript has no DOM types, so it is text).
      await page.evaluate(`document.querySelector('#${post.id} form[action$="/approve"] input[name=_csrf]').remove()`);
      await card.getByRole('button', { name: 'Approve' }).click();
      await page.waitForLoadState();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Request refused');
      assert.match((await page.locator('main').textContent()) ?? '', /nothing was changed/);
      assert.equal((await getPost(t, key, post.id)).status, 'pending_approval');
    });

    test('a key created in the browser works against the API until it is revoked; another organization sees none of this one', async () => {
      const page = await signIn(org, 'ana@example.com');
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name').fill('browser key');
      await page.getByLabel('Requests per minute').fill('60');
      await page.getByRole('button', { name: 'Create key' }).click();
      const created = (await page.locator('#new-secret').textContent()) ?? '';
      assert.match(created, /^sk_[0-9A-Za-z]{43}$/);
      assert.equal(await page.getByRole('button', { name: 'Copy' }).isVisible(), true, 'the script shows the copy button');
      assert.equal((await t.request('/api/v1/accounts', { key: created })).status, 200);

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('row').filter({ hasText: 'browser key' }).getByRole('button', { name: 'Revoke' }).click();
      await page.waitForURL(/done=revoked/);
      await waitFor(async () => (await t.request('/api/v1/accounts', { key: created })).status === 401, 5000, 'the revoked key refused');
      assert.equal(await page.locator('#new-secret').count(), 0, 'the key is never shown again');

      const held = await heldPost(t, key, org, 'Only for the first organization');
      const stranger = await t.tenant();
      const other = await signIn(stranger.organizationId, 'eve@example.com');
      assert.equal(await other.getByRole('article').count(), 0);
      await other.getByRole('link', { name: 'API keys' }).click();
      assert.equal(await other.getByRole('row').filter({ hasText: 'browser key' }).count(), 0);
      const foreign = await other.goto(`${t.url}/dashboard/webhooks/${(await t.runtime.deps.store.db.selectFrom('webhook_endpoints').select('id').where('organization_id', '=', org).executeTakeFirstOrThrow()).id}`);
      assert.equal(foreign?.status(), 404);
      assert.equal((await getPost(t, key, held.id)).status, 'pending_approval');
    });

    test('every page has one h1, labelled controls and no script or CSP errors', async () => {
      const page = await signIn(org, 'ana@example.com');
      for (const path of ['/approvals', '/posts', '/accounts', '/keys', '/webhooks']) {
        await page.goto(`${t.url}/dashboard${path}`);
        assert.equal(await page.locator('h1').count(), 1, path);
        const unlabelled: unknown = await page.evaluate(
          "[...document.querySelectorAll('input:not([type=hidden]), select, textarea')].filter((c) => c.labels.length === 0).map((c) => c.outerHTML)",
        );
        assert.deepEqual(unlabelled, [], path);
        const styled: unknown = await page.evaluate("getComputedStyle(document.querySelector('header.top')).backgroundColor");
        assert.equal(styled, 'rgb(29, 35, 48)', `${path}: the stylesheet applies`);
      }
      assert.deepEqual(problems, []);
    });

    test("the consent page's Approve reaches the client's redirect URI: form-action allows that origin (and the page is never framed)", async () => {
      // The MCP client's local listener, where the browser is sent back with the code.
      const client = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('connected'));
      await new Promise<void>((resolve) => client.listen(0, '127.0.0.1', resolve));
      try {
        const address = client.address();
        assert.ok(address && typeof address !== 'string');
        const redirect = `http://127.0.0.1:${address.port}/callback`;
        const clientId = await registeredClient(t, 'Browser agent', redirect);
        const { challenge } = pkce();
        const page = await signIn(org, 'ana@example.com');
        const consent = await page.goto(authorizeUrl(t, standardParams(t, clientId, challenge, { redirect_uri: redirect })));
        assert.equal(consent?.headers()['x-frame-options'], 'DENY');
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.waitForURL(/\/callback\?/);
        const back = new URL(page.url());
        assert.equal(`${back.origin}${back.pathname}`, redirect);
        assert.match(back.searchParams.get('code') ?? '', /^mcp_ac_/);
        assert.equal(await page.locator('body').textContent(), 'connected');
      } finally {
        await new Promise((resolve) => client.close(resolve));
      }
    });

    test('the approval switch saves itself when toggled (its Save button is only for browsers without script)', async () => {
      const page = await signIn(org, 'ana@example.com');
      await page.getByRole('link', { name: 'Accounts' }).click();
      const row = page.getByRole('row').nth(1);
      assert.equal(await row.getByRole('button', { name: 'Save' }).isVisible(), false);
      const accountId = ((await row.locator('.mono').first().textContent()) ?? '').trim();
      await row.getByLabel('Require approval').check();
      await waitFor(async () => (await t.runtime.deps.store.db.selectFrom('accounts').select('approval_required').where('id', '=', accountId).executeTakeFirst())?.approval_required === 1, 5000, 'the switch saved');
      await page.waitForLoadState();
      assert.equal(await page.getByRole('row').filter({ hasText: accountId }).getByLabel('Require approval').isChecked(), true);
    });
  });
}
