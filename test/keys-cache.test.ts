// The caller cache: keys are remembered between requests, yet a revoked key is refused as soon
// as the revocation is known, whichever process revoked it, on both stores.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../src/db/database.ts';
import type { ChannelListener, Notices } from '../src/db/notices.ts';
import { systemClock } from '../src/lib/clock.ts';
import { CallerCache, type Caller } from '../src/modules/keys/caller-cache.ts';
import { revokeKey, rotateKey } from '../src/modules/keys/service.ts';
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

    // The CLI does the same from a process of its own (cli.test.ts).
    test('a key revoked through another connection is refused once the notice arrives', async () => {
      const { key, keyId } = await t.tenant();
      for (let i = 0; i < 3; i++) assert.equal(await status(t, key), 200);
      const other = openStore(t.config.database);
      try {
        assert.equal(await revokeKey(other, systemClock, keyId), true);
      } finally {
        await other.close();
      }
      // Another connection's notice comes by NOTIFY or a watched file: milliseconds.
      await waitFor(async () => (await status(t, key)) === 401, 2000, 'the revoked key to be refused');
    });

    test('in the same process, a rotated key is refused on the very next request', async () => {
      const { key, keyId } = await t.tenant();
      assert.equal(await status(t, key), 200);
      const rotated = await rotateKey(t.runtime.deps.store, systemClock, keyId);
      assert.ok(rotated);
      assert.equal(await status(t, key), 401);
      assert.equal(await status(t, rotated.key), 200);
    });

    test('another key of the same organization keeps working after a revocation', async () => {
      const first = await t.tenant();
      assert.equal(await status(t, first.key), 200);
      const second = await t.tenant();
      await revokeKey(t.runtime.deps.store, systemClock, second.keyId);
      assert.equal(await status(t, first.key), 200);
    });
  });
}

/** Notices whose delivery the test drives by hand. */
function manualNotices(): Notices & { listener: ChannelListener | null } {
  const notices = {
    listener: null as ChannelListener | null,
    publish: () => Promise.resolve(notices.listener?.onNotify()),
    subscribe(_channel: string, listener: ChannelListener) {
      notices.listener = listener;
      return { close: async () => {} };
    },
  };
  return notices;
}

describe('CallerCache', () => {
  const caller: Caller = { keyId: 'key_1', organizationId: 'org_1', rateLimit: null, approvalRequired: false };

  test('remembers nothing until notices can reach it, nor after they stop', async () => {
    const notices = manualNotices();
    const cache = new CallerCache({ notices });
    cache.set('hash', caller, cache.generation());
    assert.equal(cache.get('hash'), undefined, 'not listening yet');
    notices.listener?.onListening?.();
    cache.set('hash', caller, cache.generation());
    assert.deepEqual(cache.get('hash'), caller);
    notices.listener?.onLost(new Error('connection lost'));
    assert.equal(cache.get('hash'), undefined, 'forgotten when the connection drops');
    cache.set('hash', caller, cache.generation());
    assert.equal(cache.get('hash'), undefined);
    await cache.close();
  });

  test('a lookup that overlapped a notice is not remembered', async () => {
    const notices = manualNotices();
    const cache = new CallerCache({ notices });
    notices.listener?.onListening?.();
    const generation = cache.generation();
    await notices.publish('keys'); // a key changed while the lookup ran
    cache.set('hash', caller, generation);
    assert.equal(cache.get('hash'), undefined);
    await cache.close();
  });

  test('entries expire after a minute', async () => {
    const notices = manualNotices();
    const cache = new CallerCache({ notices });
    notices.listener?.onListening?.();
    cache.set('hash', caller, cache.generation(), 0);
    assert.deepEqual(cache.get('hash', 59_999), caller);
    assert.equal(cache.get('hash', 60_000), undefined);
    await cache.close();
  });
});
