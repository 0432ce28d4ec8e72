// An OAuth connector's landing: GET /connect/{platform} answers the service's page
// (/connect/{platform}/signup?state=), whose one link leads to the platform's authorize page for
// that state, with the challenge of the verifier sealed with it when the connector uses PKCE. The
// page shows only for an open state of its own platform and flow, and takes no POST. WhatsApp's
// page itself is covered by connect-whatsapp and http-basics-headers; Bluesky's form by
// connect-bluesky.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { CLIENT_REDIRECT, followCallback, startConnectApp } from './harness/connect.ts';
import { openConsent, submitConsent } from './sandbox/helpers.ts';
import type { TestApp } from './harness/app.ts';
import type { SandboxState } from '../src/sandbox/index.ts';
import { pkceChallenge } from '../src/modules/connect/state.ts';

for (const dialect of DIALECTS) {
  describe(`connect landing (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    before(async () => {
      t = await startConnectApp(dialect);
      ({ key } = await t.tenant());
    });
    after(() => t.close());

    const start = async (platform: string, query = '') => {
      const res = await t.request(`/api/v1/connect/${platform}${query}`, { key });
      assert.equal(res.status, 200, await res.clone().text());
      return new URL(((await res.json()) as { authUrl: string }).authUrl);
    };
    const stateOf = (url: URL) => url.searchParams.get('state') ?? '';
    const signup = (platform: string, state: string, init?: RequestInit) => fetch(`${t.url}/api/v1/connect/${platform}/signup?state=${encodeURIComponent(state)}`, init);

    test('a PKCE connector with a landing: the page’s link carries the challenge of the sealed verifier, and the callback connects', async () => {
      // No PKCE connector declares a landing today: x's real connector is given one for this test,
      // so the sandbox's check of the verifier against the challenge proves the two match.
      const connectors = t.runtime.deps.platforms.adapters.x.connectors;
      const [original] = connectors;
      assert.ok(original?.pkce);
      connectors[0] = { ...original, landing: { title: 'Connect <X>', intro: ['First & foremost.', 'Then come back.'], button: 'Go on to X' } };
      try {
        const pageUrl = await start('x', `?redirectUrl=${encodeURIComponent(CLIENT_REDIRECT)}`);
        assert.equal(pageUrl.pathname, '/api/v1/connect/x/signup');
        const page = await fetch(pageUrl);
        const html = await page.text();
        assert.equal(page.status, 200);
        assert.equal(page.headers.get('cache-control'), 'no-store');
        assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
        assert.match(html, /<h1>Connect &#60;X&#62;<\/h1>/);
        assert.match(html, /<p>First &#38; foremost\.<\/p>\n<p>Then come back\.<\/p>/);
        const href = /<a class="button" id="signup" href="([^"]+)">Go on to X<\/a>/.exec(html)?.[1]?.replace(/&#38;/g, '&') ?? '';
        const authorize = new URL(href);
        assert.match(authorize.pathname, /\/x\.com\/i\/oauth2\/authorize$/);
        assert.equal(authorize.searchParams.get('state'), stateOf(pageUrl));
        const row = await t.runtime.deps.store.db.selectFrom('connect_states').select('code_verifier_enc').where('platform', '=', 'x').executeTakeFirstOrThrow();
        assert.equal(authorize.searchParams.get('code_challenge'), pkceChallenge(t.runtime.deps.sealer.open(row.code_verifier_enc ?? '')));
        const { location } = await followCallback(await submitConsent(await openConsent(href)));
        assert.ok(location?.searchParams.get('accountId'), location?.toString());
        // The state is spent by the callback, and the page with it.
        assert.equal((await signup('x', stateOf(pageUrl))).status, 400);
      } finally {
        connectors[0] = original;
      }
    });

    test('a state of another platform, of a flow without a landing, or unknown: 400, the expired page naming the platform', async () => {
      const whatsappState = stateOf(await start('whatsapp'));
      const blueskyState = stateOf(await start('bluesky'));
      const redditState = stateOf(await start('reddit'));
      for (const [platform, state, name] of [
        ['whatsapp', blueskyState, 'WhatsApp'],
        ['bluesky', whatsappState, 'Bluesky'],
        ['reddit', whatsappState, 'reddit'],
        ['reddit', redditState, 'reddit'],
        ['whatsapp', 'nothing', 'WhatsApp'],
      ] as const) {
        const res = await signup(platform, state);
        const html = await res.text();
        assert.equal(res.status, 400, `${platform} with a ${state.slice(0, 8)} state`);
        assert.match(html, /This link has expired/);
        assert.match(html, new RegExp(`This ${name} `, 'i'));
      }
      // Each state still opens its own page.
      assert.equal((await signup('whatsapp', whatsappState)).status, 200);
      assert.equal((await signup('bluesky', blueskyState)).status, 200);
    });

    test('a landing takes no POST: 400, and its state stays usable', async () => {
      const state = stateOf(await start('whatsapp'));
      const res = await fetch(`${t.url}/api/v1/connect/whatsapp/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ state }).toString(),
      });
      assert.equal(res.status, 400);
      assert.match(await res.text(), /This link has expired/);
      assert.equal((await signup('whatsapp', state)).status, 200);
    });
  });
}
