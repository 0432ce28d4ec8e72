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
    // The shared stores and a platform's own; a platform added as one folder is covered by the list.
    for (const name of ['ads', 'insights', 'meta', 'webhooks', 'reddit', 'x']) assert.ok((stored as string[]).includes(name), name);
    assert.equal(new Set(stored).size, stored.length, 'one store per module');
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
    const context = { graph: SANDBOX_MODULES.flatMap((m) => (m.graph ? [m.graph] : [])) };
    const declared = SANDBOX_MODULES.flatMap((m) => (m.hosts?.(context) ?? []).map((host) => host.name));
    const served = [...buildHosts(SANDBOX_MODULES).keys()];
    assert.equal(new Set(declared).size, declared.length, `a host declared twice: ${declared.join(', ')}`);
    assert.deepEqual(served.toSorted(), declared.toSorted());
    for (const host of ['graph.facebook.com', 'oauth.reddit.com', 'api.x.com', 'www.linkedin.com']) assert.ok(served.includes(host), host);
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
