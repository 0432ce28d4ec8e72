// packages/client's generated part (src/generated/schema.ts and operations.ts) is what the served
// OpenAPI document gives: a change to the API that is not regenerated fails here. Regenerate with
// `npm run generate -w @socialapi/client` (after `npm run -s openapi > docs/openapi.json`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generate } from '../packages/client/scripts/generate.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { ROOT } from './harness/cli.ts';

describe('SDK: the generated part matches the served document', () => {
  let t: TestApp;
  let files: Record<string, string>;
  before(async () => {
    t = await startApp('sqlite');
    const res = await t.request('/api/v1/openapi.json');
    assert.equal(res.status, 200);
    files = await generate((await res.json()) as Record<string, unknown>);
  });
  after(() => t.close());

  for (const name of ['schema.ts', 'operations.ts']) {
    test(`packages/client/src/generated/${name} is current`, () => {
      const committed = readFileSync(join(ROOT, 'packages/client/src/generated', name), 'utf8');
      assert.ok(committed === files[name], `packages/client/src/generated/${name} is stale: run \`npm run generate -w @socialapi/client\``);
    });
  }

  test('every operation of the document has its method, and the lists that page are known', () => {
    const operations = files['operations.ts'] ?? '';
    for (const id of ['createPost', 'listConversations', 'listInboxComments', 'testWebhook']) assert.match(operations, new RegExp(`"${id}"`));
    assert.match(operations, /"listConversations": \{[^}]*"page": \{\s*"items": "conversations",\s*"cursor": "cursor",\s*"param": "cursor"/);
  });
});
