// x mentions (DESIGN "Comments and inbox", the x row): GET /accounts/{id}/mentions lists others'
// posts naming the account, read live from GET /2/users/{id}/mentions with their authors. They
// are paid reads: without X_READS=1 the route answers 400 not_supported naming the setting, with
// no platform call. Another organization's account is 404.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { json, startPostsApp, type PostsApp } from './posts-support.ts';
import { addXAccount } from './posts-x-support.ts';

interface Mention {
  mediaId: string;
  platform: string;
  accountId: string;
  caption: string | null;
  permalink: string | null;
  username: string | null;
  createdAt: string | null;
}

for (const dialect of DIALECTS) {
  describe(`x mentions [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let off: PostsApp;

    before(async () => {
      t = await startPostsApp(dialect, { env: { X_READS: '1' } });
      off = await startPostsApp(dialect, { env: { X_READS: '0' } });
    });
    after(async () => {
      await t.close();
      await off.close();
    });

    const mention = async (app: PostsApp, text: string, username: string) => {
      const res = await fetch(`${app.url}/sandbox/_sandbox/x/mentions`, { method: 'POST', headers: json, body: JSON.stringify({ text, from: { username } }) });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { id: string }).id;
    };
    const list = async (app: PostsApp, key: string, accountId: string, query = '') => {
      const res = await app.request(`/api/v1/accounts/${accountId}/mentions${query}`, { key });
      return { status: res.status, body: (await res.json()) as { mentions?: Mention[]; error?: { code: string; message: string } } };
    };

    test('others’ posts naming the account, newest first, with author and link; a post naming someone else is not listed', async () => {
      const { key, organizationId } = await t.tenant();
      const acc = await addXAccount(t, organizationId);
      const older = await mention(t, `@${acc.username} do you deliver?`, 'bread_lover');
      t.sandbox.clock.advance(1000);
      const newer = await mention(t, `Best rolls & buns in town <3 thanks @${acc.username}!`, 'crumb_critic');
      await mention(t, '@sandbox_x hello', 'crumb_critic');
      const start = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      const res = await list(t, key, acc.id, '?limit=10');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.mentions?.map((m) => [m.mediaId, m.platform, m.accountId, m.username]), [
        [newer, 'x', acc.id, 'crumb_critic'],
        [older, 'x', acc.id, 'bread_lover'],
      ]);
      assert.equal(res.body.mentions?.[0]?.caption, `Best rolls & buns in town <3 thanks @${acc.username}!`, 'read back from X’s HTML-escaped text');
      assert.match(res.body.mentions?.[0]?.permalink ?? '', new RegExp(`/x\\.com/crumb_critic/status/${newer}$`));
      assert.ok(res.body.mentions?.[0]?.createdAt);
      const [call] = t.sandbox.journal.list({ after: start, host: 'api.x.com' });
      assert.equal(call?.path, `/2/users/${acc.userId}/mentions`);
      assert.equal(call?.query.expansions, 'author_id');
    });

    test('without X_READS=1: 400 not_supported naming the setting, no platform call; another organization’s account is 404', async () => {
      const { key, organizationId } = await off.tenant();
      const acc = await addXAccount(off, organizationId);
      const start = off.sandbox.journal.list().at(-1)?.seq ?? 0;
      const res = await list(off, key, acc.id);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error?.code, 'not_supported');
      assert.match(res.body.error?.message ?? '', /X_READS=1/);
      assert.equal(off.sandbox.journal.list({ after: start, host: 'api.x.com' }).length, 0);
      const other = await off.tenant();
      assert.equal((await list(off, other.key, acc.id)).status, 404);
    });
  });
}
