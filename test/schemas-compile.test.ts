// Route schemas are compiled on first use (src/http/compile-on-first-use.ts), so a schema that
// cannot be compiled would only show on its route's first request. This builds the app and
// compiles every validator and serializer at once: none may throw. Then a request still gets
// its answer serialized by the compiled code (a field the response schema does not declare is
// left out), and a bad query is still a 400 naming the field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './harness/app.ts';

describe('route schemas, compiled on first use', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('sqlite');
  });
  after(() => t.close());

  test('every validator and serializer of every route compiles', () => {
    const made = t.app.compileSchemas();
    assert.ok(made > 500, `compiled ${made}`);
    assert.equal(t.app.compileSchemas(), 0, 'nothing left the second time');
  });

  test('answers are serialized and inputs validated as before', async () => {
    const { key } = await t.tenant();
    const list = await t.request('/api/v1/accounts', { key });
    assert.equal(list.status, 200);
    assert.deepEqual(await list.json(), { accounts: [] });
    const bad = await t.request('/api/v1/posts?limit=0', { key });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /limit/);
  });
});
