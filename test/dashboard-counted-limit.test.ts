// The dashboard's account page shows a limit the service counts (x with X_DAILY_POST_LIMIT) as
// GET /accounts/{id}/publishing-limit answers it, through the one function both use.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signedIn } from './dashboard-support.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { startPostsApp, type PostsApp } from './posts-support.ts';
import { addXAccount } from './posts-x-support.ts';

for (const dialect of DIALECTS) {
  describe(`dashboard: a counted publishing limit [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    before(async () => {
      t = await startPostsApp(dialect, { env: { X_DAILY_POST_LIMIT: '5' } });
    });
    after(() => t.close());

    test("an x account's page shows the limit the service counts", async () => {
      const { key, organizationId } = await t.tenant();
      const account = await addXAccount(t, organizationId);
      const api = (await (await t.request(`/api/v1/accounts/${account.id}/publishing-limit`, { key })).json()) as { used: number; allowed: number };
      assert.deepEqual([api.used, api.allowed], [0, 5]);
      const dashboard = await signedIn(t, organizationId);
      const page = await dashboard.open(`/dashboard/accounts/${account.id}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<strong>0<\/strong> of <strong>5<\/strong> posts used in the last 24 hours/);
    });
  });
}
