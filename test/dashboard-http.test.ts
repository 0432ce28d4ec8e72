// The dashboard over HTTP on both stores: sign-in by a single-use link (printed by the CLI; reuse,
// expiry and sign-out refused), the session cookie's attributes, CSRF refusals that change
// nothing, approving and rejecting with the events checked at a real receiver, who and when
// recorded, escaping of user content, isolation between organizations, and keys and webhooks
// made in the dashboard working against the API.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { runCli } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { startApp } from './harness/app.ts';
import { addAccount, createPost, getPost, settled, startPostsApp, type PostsApp } from './posts-support.ts';
import { createSignInLink } from '../src/modules/dashboard/index.ts';
import { DashboardClient, heldPost, json, signedIn, signInLink } from './dashboard-support.ts';

const MINUTE = 60_000;

for (const dialect of DIALECTS) {
  describe(`dashboard over HTTP [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let receiver: Receiver;
    let org: string;
    let key: string;

    before(async () => {
      t = await startPostsApp(dialect);
      receiver = await new Receiver().start();
      ({ organizationId: org, key } = await t.tenant({ approvalRequired: true }));
      const hook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: json, body: JSON.stringify({ url: receiver.url, events: ['post.approved', 'post.rejected'] }) });
      assert.equal(hook.status, 201);
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });

    const db = () => t.runtime.deps.store.db;
    const received = (type: string, postId: string) =>
      waitFor(() => receiver.received.map((r) => JSON.parse(r.body) as { event: string; data: { postId?: string; status?: string } }).find((e) => e.event === type && e.data.postId === postId), 10_000, `${type} for ${postId}`);

    test('without a session every page leads to sign-in, which says how to get a link', async () => {
      const client = new DashboardClient(t.url);
      for (const path of ['/dashboard', '/dashboard/approvals', '/dashboard/posts', '/dashboard/accounts', '/dashboard/keys', '/dashboard/webhooks']) {
        const res = await client.open(path);
        assert.deepEqual([res.status, res.location], [303, '/dashboard/signin'], path);
      }
      const signin = await client.open('/dashboard/signin');
      assert.equal(signin.status, 200);
      assert.match(signin.text, /socialapi dashboard link --org ORG_ID/);
      const posted = await client.submit('/dashboard/keys', { name: 'x' }, null);
      assert.equal(posted.status, 401);
      assert.equal((await db().selectFrom('api_keys').select('id').where('name', '=', 'x').execute()).length, 0);
    });

    test('the CLI prints a single-use link; opening it starts a 12-hour HttpOnly SameSite=Lax session; reuse is refused; links and sessions are stored hashed', async () => {
      const printed = await runCli(['dashboard', 'link', '--org', org, '--email', 'ana@example.com'], { DATABASE_URL: t.database.url, DATA_DIR: t.database.dataDir, PUBLIC_BASE_URL: t.url });
      assert.equal(printed.code, 0, printed.stderr);
      const link = /^(http\S+\/dashboard\/login\/(dl_\S+))$/m.exec(printed.stdout);
      assert.ok(link?.[1] && link[2], printed.stdout);
      assert.match(printed.stdout, /single use, valid 15 minutes/);
      const client = new DashboardClient(t.url);
      const opened = await client.open(link[1]);
      assert.deepEqual([opened.status, opened.location], [303, '/dashboard/approvals']);
      const cookie = opened.headers.get('set-cookie') ?? '';
      assert.match(cookie, /^socialapi_dashboard=ds_[\w-]{43}; Max-Age=43200; Path=\/dashboard; HttpOnly; SameSite=Lax$/);
      const page = await client.open('/dashboard/approvals');
      assert.equal(page.status, 200);
      assert.match(page.text, /ana@example\.com/);
      const again = await new DashboardClient(t.url).open(link[1]);
      assert.equal(again.status, 410);
      assert.match(again.text, /already used/);
      assert.equal(again.headers.get('set-cookie'), null);
      // Only digests are kept.
      const session = client.cookie?.split('=')[1] ?? '';
      const links = await db().selectFrom('dashboard_links').selectAll().execute();
      const sessions = await db().selectFrom('dashboard_sessions').selectAll().execute();
      assert.ok(!JSON.stringify(links).includes(link[2]) && !JSON.stringify(sessions).includes(session));
      assert.ok(sessions.some((s) => s.email === 'ana@example.com' && s.expires_at - s.created_at === 12 * 60 * MINUTE));
      assert.equal((await runCli(['dashboard', 'link', '--org', 'org_nope'], { DATABASE_URL: t.database.url, DATA_DIR: t.database.dataDir })).code, 1);
      assert.equal((await runCli(['dashboard', 'link'], { DATABASE_URL: t.database.url, DATA_DIR: t.database.dataDir })).code, 2);
    });

    test('two visits of one link at once: exactly one signs in', async () => {
      const link = await signInLink(t, org);
      const answers = await Promise.all([new DashboardClient(t.url).open(link), new DashboardClient(t.url).open(link)]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [303, 410]);
    });

    test('an expired or unknown link opens nothing; an expired, signed-out or revoked session leads back to sign-in', async () => {
      const now = t.runtime.deps.clock.now();
      const expired = await new DashboardClient(t.url).open(await signInLink(t, org, null, now - 16 * MINUTE));
      assert.equal(expired.status, 410);
      assert.match(expired.text, /expired/);
      assert.equal((await new DashboardClient(t.url).open(`/dashboard/login/dl_${'A'.repeat(43)}`)).status, 404);
      assert.equal((await new DashboardClient(t.url).open('/dashboard/login/nonsense')).status, 404);

      const client = await signedIn(t, org);
      await db().updateTable('dashboard_sessions').set({ expires_at: now - 1 }).where('revoked_at', 'is', null).where('organization_id', '=', org).execute();
      assert.equal((await client.open('/dashboard/approvals')).location, '/dashboard/signin');

      const leaving = await signedIn(t, org);
      const out = await leaving.submit('/dashboard/logout');
      assert.equal(out.status, 200);
      assert.match(out.headers.get('set-cookie') ?? '', /socialapi_dashboard=;/);
      assert.equal((await leaving.open('/dashboard/approvals')).location, '/dashboard/signin');

      const revoked = await signedIn(t, org);
      const cli = await runCli(['dashboard', 'revoke', '--org', org], { DATABASE_URL: t.database.url, DATA_DIR: t.database.dataDir });
      assert.equal(cli.code, 0, cli.stderr);
      assert.equal((await revoked.open('/dashboard/approvals')).location, '/dashboard/signin');
    });

    test('a form without the CSRF token, or with another session’s, is 403 and changes nothing', async () => {
      const post = await heldPost(t, key, org, 'csrf guarded');
      const client = await signedIn(t, org);
      const other = await signedIn(t, org);
      for (const token of [null, 'forged', other.csrf ?? '']) {
        for (const [path, fields] of [[`/dashboard/approvals/${post.id}/approve`, {}], [`/dashboard/approvals/${post.id}/reject`, { reason: 'x' }], ['/dashboard/keys', { name: 'csrf-key' }]] as const) {
          const res = await client.submit(path, fields, token);
          assert.equal(res.status, 403, `${path} with ${String(token)}`);
          assert.match(res.text, /nothing was changed/);
        }
      }
      assert.equal((await getPost(t, key, post.id)).status, 'pending_approval');
      assert.equal((await db().selectFrom('api_keys').select('id').where('name', '=', 'csrf-key').execute()).length, 0);
      assert.equal((await db().selectFrom('events').select('type').where('data', 'like', `%${post.id}%`).execute()).length, 1, 'only post.pending_approval');
    });

    test('approvals: held posts newest first with content escaped, targets and options; approve publishes and reject records the reason, events at the receiver, who and when shown', async () => {
      const first = await heldPost(t, key, org, 'first <script>alert(1)</script> & more');
      const second = await heldPost(t, key, org, 'second post');
      const client = await signedIn(t, org, 'ana@example.com');
      const queue = await client.open('/dashboard/approvals');
      assert.equal(queue.status, 200);
      assert.ok(queue.text.indexOf(second.id) < queue.text.indexOf(first.id), 'newest first');
      assert.ok(!queue.text.includes('<script>alert(1)</script>'));
      assert.match(queue.text, /first &lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; more/);
      assert.match(queue.text, /<dt>subreddit<\/dt><dd>sandbox<\/dd>/);
      assert.match(queue.text, /Publishes as soon as it is approved/);
      assert.match(queue.text, /with the key “default”/);

      const approved = await client.submit(`/dashboard/approvals/${first.id}/approve`);
      assert.deepEqual([approved.status, approved.location], [303, `/dashboard/approvals?done=queued&post=${first.id}`]);
      const event = await received('post.approved', first.id);
      assert.deepEqual(event.data, { postId: first.id, status: 'queued' });
      assert.equal((await settled(t, key, first.id)).status, 'published');

      const rejected = await client.submit(`/dashboard/approvals/${second.id}/reject`, { reason: 'off <brand>' });
      assert.equal(rejected.status, 303);
      assert.deepEqual((await received('post.rejected', second.id)).data, { postId: second.id, status: 'rejected' });
      const rows = await db().selectFrom('posts').select(['id', 'status', 'reviewed_by', 'reviewed_at', 'rejected_reason']).where('id', 'in', [first.id, second.id]).orderBy('id').execute();
      assert.deepEqual(rows.map((r) => [r.id, r.status, r.reviewed_by, r.rejected_reason, typeof r.reviewed_at]), [
        [first.id, 'published', 'ana@example.com', null, 'number'],
        [second.id, 'rejected', 'ana@example.com', 'off <brand>', 'number'],
      ]);
      const posts = await client.open('/dashboard/posts?status=rejected');
      assert.match(posts.text, /Rejected by <strong>ana@example\.com<\/strong> on <time/);
      assert.match(posts.text, /reason: “off &lt;brand&gt;”/);
      const published = await client.open('/dashboard/posts?status=published');
      assert.match(published.text, /Approved by <strong>ana@example\.com<\/strong>/);
      assert.match(published.text, /<dt>url<\/dt><dd><a href="http/);

      const twice = await client.submit(`/dashboard/approvals/${second.id}/approve`);
      assert.equal(twice.status, 409);
      assert.match(twice.text, /rejected, not waiting for approval/);
      assert.equal((await client.submit('/dashboard/approvals/post_unknown/approve')).status, 404);
      const cleared = await client.open('/dashboard/approvals');
      assert.ok(!cleared.text.includes(first.id) && !cleared.text.includes(second.id));
    });

    test('organizations are isolated: another organization’s posts, accounts, keys and webhooks are not found and stay unchanged', async () => {
      const post = await heldPost(t, key, org, 'not yours');
      const account = await addAccount(t, org, 'reddit');
      const { keyId } = await t.tenant();
      const hook = (await db().selectFrom('webhook_endpoints').select('id').where('organization_id', '=', org).executeTakeFirstOrThrow()).id;
      const stranger = await t.tenant();
      const client = await signedIn(t, stranger.organizationId, 'eve@example.com');
      const ownKey = (await db().selectFrom('api_keys').select('id').where('organization_id', '=', org).executeTakeFirstOrThrow()).id;
      assert.ok(!(await client.open('/dashboard/approvals')).text.includes(post.id));
      assert.ok(!(await client.open('/dashboard/posts')).text.includes(post.id));
      assert.ok(!(await client.open('/dashboard/accounts')).text.includes(account.id));
      assert.ok(!(await client.open('/dashboard/keys')).text.includes(ownKey));
      for (const path of [`/dashboard/accounts/${account.id}`, `/dashboard/webhooks/${hook}`]) assert.equal((await client.open(path)).status, 404, path);
      for (const path of [
        `/dashboard/approvals/${post.id}/approve`,
        `/dashboard/approvals/${post.id}/reject`,
        `/dashboard/posts/${post.id}/retry`,
        `/dashboard/accounts/${account.id}/approval`,
        `/dashboard/accounts/${account.id}/reconnect`,
        `/dashboard/keys/${ownKey}/revoke`,
        `/dashboard/keys/${keyId}/rotate`,
        `/dashboard/webhooks/${hook}/delete`,
        `/dashboard/webhooks/${hook}/test`,
      ]) {
        assert.equal((await client.submit(path, { required: '1' })).status, 404, path);
      }
      assert.equal((await getPost(t, key, post.id)).status, 'pending_approval');
      assert.equal((await db().selectFrom('accounts').select('approval_required').where('id', '=', account.id).executeTakeFirstOrThrow()).approval_required, 0);
      assert.equal((await t.request('/api/v1/accounts', { key })).status, 200, 'the key still works');
      assert.equal((await db().selectFrom('webhook_endpoints').select('id').where('id', '=', hook).execute()).length, 1);
    });

    test('keys created in the dashboard work against the API, shown once; its approval flag holds posts; revoked and rotated keys stop working', async () => {
      const tenant = await t.tenant();
      const client = await signedIn(t, tenant.organizationId);
      const created = await client.submit('/dashboard/keys', { name: 'ci <bot>', rateLimit: '120', approval: '1' });
      assert.equal(created.status, 201);
      const newKey = /<code id="new-secret">(sk_[0-9A-Za-z]{43})<\/code>/.exec(created.text)?.[1] ?? '';
      assert.ok(newKey, 'the key is on the page');
      assert.match(created.text, /ci &lt;bot&gt;/);
      assert.equal((await t.request('/api/v1/accounts', { key: newKey })).status, 200);
      const row = await db().selectFrom('api_keys').selectAll().where('organization_id', '=', tenant.organizationId).where('name', '=', 'ci <bot>').executeTakeFirstOrThrow();
      assert.deepEqual([row.rate_limit, row.approval_required], [120, 1]);
      const list = await client.open('/dashboard/keys');
      assert.ok(!list.text.includes(newKey), 'never shown again');
      assert.match(list.text, /120\/min/);
      const account = await addAccount(t, tenant.organizationId, 'reddit');
      const held = await createPost(t, newKey, { content: 'by the new key', publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'sandbox' } }] });
      assert.equal(held.body.post.status, 'pending_approval');

      const bad = await client.submit('/dashboard/keys', { rateLimit: 'lots' });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /rateLimit/);

      const rotated = await client.submit(`/dashboard/keys/${row.id}/rotate`);
      assert.equal(rotated.status, 200);
      const replacement = /<code id="new-secret">(sk_[0-9A-Za-z]{43})<\/code>/.exec(rotated.text)?.[1] ?? '';
      await waitFor(async () => (await t.request('/api/v1/accounts', { key: newKey })).status === 401, 5000, 'the rotated key refused');
      assert.equal((await t.request('/api/v1/accounts', { key: replacement })).status, 200);
      const replacementId = (await db().selectFrom('api_keys').select('id').where('organization_id', '=', tenant.organizationId).where('revoked_at', 'is', null).where('id', '!=', tenant.keyId).executeTakeFirstOrThrow()).id;
      const revoked = await client.submit(`/dashboard/keys/${replacementId}/revoke`);
      assert.deepEqual([revoked.status, revoked.location], [303, '/dashboard/keys?done=revoked']);
      await waitFor(async () => (await t.request('/api/v1/accounts', { key: replacement })).status === 401, 5000, 'the revoked key refused');
      assert.equal((await client.submit(`/dashboard/keys/${replacementId}/revoke`)).status, 404, 'already revoked');
    });

    test('webhooks: created with the secret shown once, tested, deliveries listed with their response, redelivered with the same idempotency key, deleted', async () => {
      const tenant = await t.tenant();
      const hooks = await new Receiver().start();
      try {
        const client = await signedIn(t, tenant.organizationId);
        const bad = await client.submit('/dashboard/webhooks', { url: 'not a url' });
        assert.equal(bad.status, 400);
        const created = await client.submit('/dashboard/webhooks', { url: hooks.url, events: ['post.published', 'post.failed'] });
        assert.equal(created.status, 201);
        assert.match(created.text, /<code id="new-secret">whsec_[\w-]+<\/code>/);
        const endpoint = await db().selectFrom('webhook_endpoints').selectAll().where('organization_id', '=', tenant.organizationId).executeTakeFirstOrThrow();
        assert.deepEqual(JSON.parse(endpoint.events), ['post.published', 'post.failed']);
        assert.ok(!(await client.open('/dashboard/webhooks')).text.includes('whsec_'));

        const tested = await client.submit(`/dashboard/webhooks/${endpoint.id}/test`);
        assert.equal(tested.location, `/dashboard/webhooks/${endpoint.id}?done=tested`);
        const [first] = await hooks.waitFor(1, 10_000);
        assert.equal((JSON.parse(first?.body ?? '{}') as { event: string }).event, 'webhook.test');
        const delivery = await waitFor(() => db().selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', endpoint.id).where('status', '=', 'delivered').executeTakeFirst(), 10_000, 'delivered');
        const page = await client.open(`/dashboard/webhooks/${endpoint.id}`);
        assert.match(page.text, new RegExp(`webhook\\.test</span><br><span class="mono muted">${delivery.id}`));
        assert.match(page.text, /badge-delivered/);
        assert.match(page.text, /200 in \d+ ms/);
        const again = await client.submit(`/dashboard/webhooks/deliveries/${delivery.id}/redeliver`);
        assert.equal(again.location, `/dashboard/webhooks/${endpoint.id}?done=redelivered`);
        const [, second] = await hooks.waitFor(2, 10_000);
        assert.equal(second?.headers['x-idempotency-key'], first?.headers['x-idempotency-key']);
        const deleted = await client.submit(`/dashboard/webhooks/${endpoint.id}/delete`);
        assert.equal(deleted.location, '/dashboard/webhooks?done=deleted');
        assert.equal((await db().selectFrom('webhook_endpoints').select('id').where('id', '=', endpoint.id).execute()).length, 0);
      } finally {
        await hooks.stop();
      }
    });

    test('webhooks: edited in place keeping the secret, the secret rotated and shown once, deliveries with attempts and the next attempt time', async () => {
      const tenant = await t.tenant();
      const first = await new Receiver().start();
      const second = await new Receiver().start();
      try {
        const client = await signedIn(t, tenant.organizationId);
        const created = await client.submit('/dashboard/webhooks', { url: first.url, events: ['post.published'] });
        const secret = /<code id="new-secret">(whsec_[\w-]+)<\/code>/.exec(created.text)?.[1] ?? '';
        assert.ok(secret);
        const endpoint = await db().selectFrom('webhook_endpoints').selectAll().where('organization_id', '=', tenant.organizationId).executeTakeFirstOrThrow();
        const list = await client.open('/dashboard/webhooks');
        assert.match(list.text, new RegExp(`action="/dashboard/webhooks/${endpoint.id}/edit"`));
        assert.match(list.text, new RegExp(`action="/dashboard/webhooks/${endpoint.id}/secret"`));

        // Edit: another URL and events, switched off; a bad URL or no event names the field; without CSRF nothing changes.
        assert.equal((await client.submit(`/dashboard/webhooks/${endpoint.id}/edit`, { url: second.url, events: ['post.failed'] }, null)).status, 403);
        const badUrl = await client.submit(`/dashboard/webhooks/${endpoint.id}/edit`, { url: 'not a url', events: ['post.failed'] });
        assert.equal(badUrl.status, 400);
        assert.match(badUrl.text, /url: /);
        const noEvents = await client.submit(`/dashboard/webhooks/${endpoint.id}/edit`, { url: second.url });
        assert.equal(noEvents.status, 400);
        assert.match(noEvents.text, /“events”: choose at least one/);
        const saved = await client.submit(`/dashboard/webhooks/${endpoint.id}/edit`, { url: second.url, events: ['post.failed', 'post.approved'] });
        assert.deepEqual([saved.status, saved.location], [303, '/dashboard/webhooks?done=updated']);
        const edited = await db().selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
        assert.deepEqual([edited.url, JSON.parse(edited.events), edited.enabled, edited.secret_enc], [second.url, ['post.failed', 'post.approved'], 0, endpoint.secret_enc]);
        assert.match((await client.open('/dashboard/webhooks')).text, /badge-disabled/);
        assert.equal((await client.submit(`/dashboard/webhooks/${endpoint.id}/edit`, { url: second.url, events: ['post.failed'], enabled: '1' })).status, 303);
        assert.equal((await db().selectFrom('webhook_endpoints').select('enabled').where('id', '=', endpoint.id).executeTakeFirstOrThrow()).enabled, 1);

        // Rotate: the new secret once; the test event carries both signatures.
        assert.equal((await client.submit(`/dashboard/webhooks/${endpoint.id}/secret`, {}, null)).status, 403);
        const rotated = await client.submit(`/dashboard/webhooks/${endpoint.id}/secret`);
        assert.equal(rotated.status, 200);
        const fresh = /<code id="new-secret">(whsec_[\w-]+)<\/code>/.exec(rotated.text)?.[1] ?? '';
        assert.ok(fresh && fresh !== secret, 'a new secret on the page');
        const after = await client.open('/dashboard/webhooks');
        assert.ok(!after.text.includes(fresh), 'shown once');
        assert.match(after.text, /previous secret also signs deliveries/);
        second.script.push({ status: 500 });
        await client.submit(`/dashboard/webhooks/${endpoint.id}/test`);
        const [got] = await second.waitFor(1, 10_000);
        const stamp = String(got?.headers['x-socialapi-timestamp']);
        const sign = (key: string) => createHmac('sha256', key).update(`${stamp}.${got?.body ?? ''}`).digest('hex');
        assert.deepEqual([got?.headers['x-socialapi-signature'], got?.headers['x-socialapi-signature-previous']], [sign(fresh), sign(secret)]);
        assert.equal(first.received.length, 0);

        // The failed attempt: one attempt made, the second of 8 next, at the time the API gives.
        const pending = await waitFor(() => db().selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', endpoint.id).where('status', '=', 'pending').where('attempts', '=', 1).executeTakeFirst(), 10_000, 'the retry scheduled');
        const page = await client.open(`/dashboard/webhooks/${endpoint.id}`);
        assert.match(page.text, /<th scope="col">Next attempt<\/th>/);
        assert.match(page.text, new RegExp(`<td>1<br><span class="muted">next: 2 of 8</span></td>`));
        assert.ok(page.text.includes(`<time datetime="${new Date(pending.next_attempt_at ?? 0).toISOString()}">`), 'the next attempt time');
        // Redelivered: due at once, and delivered.
        await client.submit(`/dashboard/webhooks/deliveries/${pending.id}/redeliver`);
        await second.waitFor(2, 5000);
        await waitFor(() => db().selectFrom('webhook_deliveries').select('id').where('id', '=', pending.id).where('status', '=', 'delivered').executeTakeFirst(), 10_000, 'delivered');
        const done = await client.open(`/dashboard/webhooks/${endpoint.id}`);
        assert.match(done.text, /badge-delivered<\/span>|badge badge-delivered/);
        assert.match(done.text, /<td>2<\/td>/);
      } finally {
        await first.stop();
        await second.stop();
      }
    });

    test('accounts: the approval switch holds the account’s posts; health and reconnect; posts page through by keyset with a failed post retried', async () => {
      const tenant = await t.tenant();
      const client = await signedIn(t, tenant.organizationId);
      const account = await addAccount(t, tenant.organizationId, 'reddit');
      const list = await client.open('/dashboard/accounts');
      assert.match(list.text, new RegExp(`href="/dashboard/accounts/${account.id}"`));
      const on = await client.submit(`/dashboard/accounts/${account.id}/approval`, { required: '1', back: 'detail' });
      assert.equal(on.location, `/dashboard/accounts/${account.id}?done=approval`);
      const held = await createPost(t, tenant.key, { content: 'held by the account', publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'sandbox' } }] });
      assert.equal(held.body.post.status, 'pending_approval');
      await client.submit(`/dashboard/accounts/${account.id}/approval`, {});
      assert.equal((await db().selectFrom('accounts').select('approval_required').where('id', '=', account.id).executeTakeFirstOrThrow()).approval_required, 0);

      const detail = await client.open(`/dashboard/accounts/${account.id}`);
      assert.equal(detail.status, 200);
      assert.match(detail.text, /<h2 id="h-health">Health<\/h2>/);
      assert.match(detail.text, /reddit has no rolling publishing limit/);
      const checked = await client.submit(`/dashboard/accounts/${account.id}/health`);
      assert.equal(checked.location, `/dashboard/accounts/${account.id}?done=checked`);
      const reconnect = await client.submit(`/dashboard/accounts/${account.id}/reconnect`);
      assert.equal(reconnect.status, 303);
      assert.match(reconnect.location ?? '', /state=/);
      assert.equal((await db().selectFrom('connect_states').select('redirect_url').where('organization_id', '=', tenant.organizationId).executeTakeFirstOrThrow()).redirect_url, `${t.config.publicBaseUrl}/dashboard/accounts/${account.id}`);

      // A post to an account that needs reconnecting fails; once reconnected, retry publishes it.
      const broken = await addAccount(t, tenant.organizationId, 'reddit', { status: 'needs_reconnect' });
      const failing = await createPost(t, tenant.key, { content: 'will fail first', publishNow: true, platforms: [{ accountId: broken.id, platformSpecificData: { subreddit: 'sandbox' } }] });
      assert.equal((await settled(t, tenant.key, failing.body.post.id)).status, 'failed');
      const failedPage = await client.open('/dashboard/posts?status=failed');
      assert.match(failedPage.text, /Retry failed targets/);
      assert.match(failedPage.text, /<dt>error<\/dt>/);
      await db().updateTable('accounts').set({ status: 'active' }).where('id', '=', broken.id).execute();
      const retried = await client.submit(`/dashboard/posts/${failing.body.post.id}/retry`, { status: 'failed' });
      assert.equal(retried.location, `/dashboard/posts?done=retried&post=${failing.body.post.id}&status=failed`);
      assert.equal((await settled(t, tenant.key, failing.body.post.id)).status, 'published');

      // Keyset paging: 27 drafts and the post above, 25 a page.
      for (let i = 0; i < 27; i++) await createPost(t, tenant.key, { content: `draft ${i}`, platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'sandbox' } }] });
      const firstPage = await client.open('/dashboard/posts?status=draft');
      assert.equal((firstPage.text.match(/<article class="card"/g) ?? []).length, 25);
      const older = /href="(\/dashboard\/posts\?status=draft&amp;before=post_\w+)">Older/.exec(firstPage.text)?.[1]?.replace('&amp;', '&') ?? '';
      const secondPage = await client.open(older);
      assert.equal((secondPage.text.match(/<article class="card"/g) ?? []).length, 2);
      assert.match(secondPage.text, /draft 0</);
      assert.ok(!/Older/.test(secondPage.text));
      const byAccount = await client.open(`/dashboard/posts?account=${broken.id}`);
      assert.deepEqual([...byAccount.text.matchAll(/<article class="card" id="(post_\w+)"/g)].map((m) => m[1]), [failing.body.post.id]);
      assert.match(byAccount.text, new RegExp(`<option value="${broken.id}" selected>`));
      assert.equal((await client.open('/dashboard/posts?status=lost')).status, 400);
      assert.equal((await client.open('/dashboard/posts?before=%27or%201=1')).status, 400);
    });
  });
}

describe('dashboard under https', () => {
  test('the session cookie is Secure when PUBLIC_BASE_URL is https', async () => {
    const t = await startApp('sqlite', { env: { PUBLIC_BASE_URL: 'https://dashboard.example' } });
    try {
      const { organizationId } = await t.tenant();
      const { token } = await createSignInLink(t.runtime.deps.store.db, t.runtime.deps.clock.now(), organizationId, null);
      const opened = await fetch(`${t.url}/dashboard/login/${token}`, { redirect: 'manual' });
      assert.equal(opened.status, 303);
      assert.match(opened.headers.get('set-cookie') ?? '', /; HttpOnly; Secure; SameSite=Lax$/);
    } finally {
      await t.close();
    }
  });
});
