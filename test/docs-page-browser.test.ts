// The API reference at /docs in a real Chromium (Debian's package, driven by playwright-core), on
// both stores: GET / links to it, the page renders the served document's operations and platform
// option schemas, every request the page makes stays on our origin, its Content-Security-Policy
// allows only that, no script or CSP error shows, and the dashboard links to it.
// Under CI a missing browser fails the suite; elsewhere it is skipped with the reason.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createSignInLink } from '../src/modules/dashboard/index.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { IN_CI } from './harness/services.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const noBrowser = CHROMIUM && existsSync(CHROMIUM) ? false : 'no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH); browser tests skipped';
if (noBrowser && IN_CI) throw new Error(`CI: ${noBrowser}`);
if (noBrowser) process.stderr.write(`docs-page-browser: ${noBrowser}\n`);

for (const dialect of DIALECTS) {
  describe(`API reference at /docs [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(dialect);
    });
    after(() => t.close());

    test('GET / links to it; the page and its files are ours, under a policy that allows only our origin', { skip: skipReason(dialect) }, async () => {
      const front = (await (await t.request('/')).json()) as { links: Record<string, string> };
      assert.equal(new URL(front.links.docs ?? '').pathname, '/docs');
      const page = await t.request('/docs');
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      const policy = page.headers.get('content-security-policy') ?? '';
      assert.match(policy, /default-src 'none'/);
      for (const directive of ['script-src', 'connect-src', 'font-src']) assert.match(policy, new RegExp(`${directive} 'self'(;|$)`), directive);
      assert.match(policy, /style-src 'self'( 'sha256-[\w+/=]+')*;/);
      assert.doesNotMatch(policy, /https?:|unsafe-inline|unsafe-eval|\*/);
      const html = await page.text();
      const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
      assert.ok(sources.length >= 4, html);
      for (const source of sources) assert.ok(source.startsWith('/docs/'), `${source} is ours`);
      const json = await t.request('/docs/json');
      assert.equal(json.status, 200);
      assert.deepEqual(await json.json(), await (await t.request('/api/v1/openapi.json')).json());
    });

    describe('in Chromium', { skip: noBrowser || skipReason(dialect) }, () => {
      let browser: Browser;
      const problems: string[] = [];
      const elsewhere: string[] = [];
      before(async () => {
        browser = await chromium.launch({ executablePath: CHROMIUM ?? '', headless: true, args: ['--no-sandbox'] });
      });
      after(() => browser?.close());

      async function newPage(): Promise<Page> {
        const page = await (await browser.newContext()).newPage();
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.protocol !== 'data:' && url.origin !== new URL(t.url).origin) elsewhere.push(request.url());
        });
        return page;
      }

      test('renders the operations and the platform option schemas, loading nothing from elsewhere', async () => {
        const page = await newPage();
        await page.goto(`${t.url}/docs`);
        await page.locator('.opblock-summary-path', { hasText: '/posts' }).first().waitFor({ timeout: 20_000 });
        assert.match((await page.locator('.info .title').textContent()) ?? '', /Social publishing API/);
        assert.ok((await page.locator('.opblock').count()) > 60, 'every operation is listed');
        await page.locator('.models').first().waitFor();
        assert.match((await page.locator('section.models').first().textContent()) ?? '', /RedditData/, 'RedditData is among the schemas');
        // Opening an operation shows its answers, described.
        await page.locator('.opblock-summary', { hasText: 'getPost' }).first().click();
        await page.locator('.responses-table').first().waitFor();
        assert.match((await page.locator('.responses-table').first().textContent()) ?? '', /OK: the Post/);
        assert.deepEqual(elsewhere, []);
        assert.deepEqual(problems, []);
      });

      test('the dashboard links to it', async () => {
        const { organizationId } = await t.tenant();
        const page = await newPage();
        const { token } = await createSignInLink(t.runtime.deps.store.db, t.runtime.deps.clock.now(), organizationId, 'ana@example.com');
        await page.goto(`${t.url}/dashboard/login/${token}`);
        await page.getByRole('link', { name: 'API reference' }).click();
        await page.waitForURL(`${t.url}/docs`);
        await page.locator('.info .title').waitFor({ timeout: 20_000 });
        assert.deepEqual(elsewhere, []);
        assert.deepEqual(problems, []);
      });
    });
  });
}
