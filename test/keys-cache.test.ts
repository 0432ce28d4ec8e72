// The caller cache: keys are remembered between requests, yet a revoked key is refused on the
// next request, whichever process or connection revoked it, on both stores.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStore } from '../src/db/database.ts';
import { systemClock } from '../src/lib/clock.ts';
import { CallerCache, type Caller } from '../src/modules/keys/caller-cache.ts';
import { revokeKey } from '../src/modules/keys/service.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';

const status = async (t: TestApp, key: string) => (await t.request('/api/v1/accounts', { key })).status;

for (const dialect of DIALECTS) {
  describe(`API key cache [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(dialect);
    });
    after(() => t.close());

    test('a key revoked through another connection is refused from the next request on', async () => {
      const { key, keyId } = await t.tenant();
      for (let i = 0; i < 3; i++) assert.equal(await status(t, key), 200);
      const other = openStore(t.config.database);
      try {
        assert.equal(await revokeKey(other.db, other, systemClock, keyId), true);
      } finally {
        await other.close();
      }
      // SQLite: the file's data_version moved, checked on every request. PostgreSQL: the NOTIFY
      // sent with the revocation reaches the server's LISTEN connection (milliseconds).
      if (dialect === 'sqlite') assert.equal(await status(t, key), 401);
      else await waitFor(async () => (await status(t, key)) === 401, 2000, 'the revoked key to be refused');
    });

    test('another key of the same organization keeps working after a revocation', async () => {
      const first = await t.tenant();
      assert.equal(await status(t, first.key), 200);
      const second = await t.tenant();
      await revokeKey(t.runtime.deps.store.db, t.runtime.deps.store, systemClock, second.keyId);
      assert.equal(await status(t, first.key), 200);
    });

    if (dialect === 'sqlite') {
      test('SQLite: any write by another process clears the cache, even one that sends no notice', async () => {
        const { key, keyId } = await t.tenant();
        assert.equal(await status(t, key), 200);
        const other = openStore(t.config.database);
        try {
          await sql`update api_keys set revoked_at = 1 where id = ${keyId}`.execute(other.db);
        } finally {
          await other.close();
        }
        assert.equal(await status(t, key), 401);
      });
    }
  });
}

describe('CallerCache', () => {
  const caller: Caller = { keyId: 'key_1', organizationId: 'org_1', rateLimit: null, approvalRequired: false };

  test('remembers nothing while a change could not reach it (PostgreSQL without LISTEN)', async () => {
    const cache = new CallerCache({ dataVersion: null, listenClient: () => Promise.reject(new Error('no connection')) });
    try {
      cache.set('hash', caller, cache.generation());
      assert.equal(cache.get('hash'), undefined);
    } finally {
      await cache.close();
    }
  });

  test('a lookup that overlapped a change is not remembered', async () => {
    let version = 1;
    const cache = new CallerCache({ dataVersion: () => version, listenClient: null });
    try {
      const generation = cache.generation();
      version = 2; // another process committed while the lookup ran
      cache.set('hash', caller, generation);
      assert.equal(cache.get('hash'), undefined);
      cache.set('hash', caller, cache.generation());
      assert.deepEqual(cache.get('hash'), caller);
    } finally {
      await cache.close();
    }
  });

  test('entries expire after a minute', async () => {
    const cache = new CallerCache({ dataVersion: () => 1, listenClient: null });
    try {
      cache.set('hash', caller, cache.generation(), 0);
      assert.deepEqual(cache.get('hash', 59_999), caller);
      assert.equal(cache.get('hash', 60_000), undefined);
    } finally {
      await cache.close();
    }
  });
});
