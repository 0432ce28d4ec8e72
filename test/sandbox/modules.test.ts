// The sandbox built from its list of modules (issue 13, point 6): each module's store is a field
// named after the module, reset gives every module a fresh one, the state file keeps each under
// that name, every host is served once, and the core imports no module's folder.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SandboxState } from '../../src/sandbox/index.ts';
import { buildHosts } from '../../src/sandbox/hosts.ts';
import { SANDBOX_MODULES } from '../../src/sandbox/modules.ts';

const stored = SANDBOX_MODULES.filter((m) => m.store).map((m) => m.name);

describe('sandbox modules', () => {
  test('each store is a field named after its module; reset replaces every one with an empty store', () => {
    const state = new SandboxState({ seed: 'modules' });
    assert.deepEqual(stored.toSorted(), ['ads', 'insights', 'linkedin', 'meta', 'pinterest', 'reddit', 'threads', 'tiktok', 'webhooks', 'whatsapp', 'x', 'youtube']);
    const before = new Map<string, unknown>();
    for (const name of stored) {
      const store: unknown = Reflect.get(state, name);
      assert.ok(store && typeof store === 'object', name);
      assert.ok(Object.keys(state).includes(name), `${name} is an own enumerable field`);
      Object.assign(store, { leftOver: true });
      before.set(name, store);
    }
    state.reset();
    for (const name of stored) {
      const store: unknown = Reflect.get(state, name);
      assert.ok(store && typeof store === 'object');
      assert.notEqual(store, before.get(name), `${name}: a new store`);
      assert.ok(!('leftOver' in store), `${name}: nothing left over`);
    }
    assert.equal(state.whatsapp.wabas.size, 1, 'seeded again');
    assert.equal(state.ads.accounts.size, 1);
  });

  test('the state file keeps each store under its module name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-modules-'));
    try {
      const file = join(dir, 'state.json');
      const state = new SandboxState({ seed: 'modules', stateFile: file });
      state.openStateFile();
      state.changed();
      await state.close();
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { state: Record<string, unknown> };
      for (const name of stored) assert.ok(name in saved.state, name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('every host is served by one module', () => {
    assert.deepEqual([...buildHosts(SANDBOX_MODULES).keys()].sort(), [
      'accounts.google.com',
      'api.instagram.com',
      'api.linkedin.com',
      'api.pinterest.com',
      'api.x.com',
      'graph.facebook.com',
      'graph.instagram.com',
      'graph.threads.net',
      'lookaside.fbsbx.com',
      'oauth.reddit.com',
      'oauth2.googleapis.com',
      'open-upload.tiktokapis.com',
      'open.tiktokapis.com',
      'pinterest-media-upload.s3-accelerate.amazonaws.com',
      'rupload.facebook.com',
      'threads.net',
      'www.facebook.com',
      'www.googleapis.com',
      'www.instagram.com',
      'www.linkedin.com',
      'www.pinterest.com',
      'www.reddit.com',
      'www.threads.net',
      'www.tiktok.com',
      'www.youtube.com',
      'x.com',
      'youtubeanalytics.googleapis.com',
    ]);
  });

  test('the core imports no module folder', () => {
    const dir = join(import.meta.dirname, '../../src/sandbox/core');
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const [, from = ''] of text.matchAll(/from '(\.\.\/[^']+)'/g)) {
        assert.match(from, /^\.\.\/(\.\.\/lib|media)\//, `${file} imports ${from}`);
      }
    }
  });
});
