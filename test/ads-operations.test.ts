// The ads operations (issue 18) over HTTP against the in-process sandbox, on both stores: ad
// accounts, a campaign → ad set → creative → ad built by hand, a boost of a post published
// through the service, audiences with hashed members, insights, targeting search. For each, the
// request that reached the sandbox (PAUSED, minor units of the ad account's currency, hashes
// only) and the sandbox's state; confirm missing → 400 with no platform call; approval (key,
// organization or account) refuses every write with 403 before any platform call (issue 29);
// another organization's ad objects are 404; bad input is a 400 naming the field.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addAdsAccount, type AdsAccount } from './ads-support.ts';
import { quickMetaProcessing } from './posts-meta-support.ts';
import { createPost, json, settled, startPostsApp, type PostsApp } from './posts-support.ts';
import { createPost as sandboxPost } from '../src/sandbox/facebook/posts.ts';
import { addAdAccount } from '../src/sandbox/ads/seed.ts';
import { createKey } from '../src/modules/keys/service.ts';

type Body = Record<string, unknown> & { error?: { message: string; code?: string } };
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

for (const dialect of DIALECTS) {
  describe(`ads operations [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;
    let fb: AdsAccount;
    // Everything the service logs during the suite (LOG_LEVEL info), to show no raw email is in it.
    const logged: string[] = [];
    const write = process.stdout.write.bind(process.stdout);

    before(async () => {
      // The service's log lines are kept aside; everything else (the test runner's own reports) goes on.
      process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        const text = String(chunk);
        if (!text.startsWith('{"level"')) return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
        logged.push(text);
        return true;
      });
      t = await startPostsApp(dialect, { env: { LOG_LEVEL: 'info' } });
      quickMetaProcessing(t);
      ({ key, organizationId: org } = await t.tenant());
      fb = await addAdsAccount(t, org);
    });
    after(async () => {
      process.stdout.write = write;
      await t.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const callsSince = (seq: number) => t.sandbox.journal.list({ after: seq }).filter((e) => !e.path.startsWith('/_sandbox'));
    const api = async (method: string, path: string, body?: unknown, apiKey = key): Promise<{ status: number; body: Body; headers: Headers }> => {
      const res = await t.request(`/api/v1${path}`, { key: apiKey, method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
      return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
    };
    const ok = (res: { status: number; body: Body }, status = 200) => {
      assert.equal(res.status, status, JSON.stringify(res.body));
      return res.body;
    };
    const refused = (res: { status: number; body: Body }) => [res.status, res.body.error?.code ?? res.body.error?.message.split(':')[0]];
    const sandboxAds = () => t.sandbox.ads;
    const form = (body: unknown) => body as Record<string, string>;

    test('ad accounts of a facebook account: currency and its offset, recorded for the organization', async () => {
      const body = ok(await api('GET', `/ads/accounts?accountId=${fb.id}`));
      const accounts = body.adAccounts as Array<Record<string, unknown>>;
      assert.deepEqual(accounts.map((a) => [a.id, a.accountId, a.currency, a.currencyOffset, a.accountStatus]), [[fb.adAccountId, fb.id, 'USD', 100, 1]]);
      const rows = await t.runtime.deps.store.db.selectFrom('ad_objects').selectAll().where('organization_id', '=', org).execute();
      assert.deepEqual(rows.map((r) => [r.platform_id, r.kind, r.account_id]), [[fb.adAccountId, 'ad_account', fb.id]]);
      assert.deepEqual(refused(await api('GET', '/ads/accounts')), [400, 'query.accountId']);
    });

    test("an agency's many ad accounts are all listed (Meta's pages followed)", async () => {
      const agency = await t.tenant();
      const account = await addAdsAccount(t, agency.organizationId);
      for (let i = 0; i < 1205; i++) addAdAccount(t.sandbox, { ownerUserId: account.userId, name: `Client ${i}` });
      const listed = ok(await api('GET', `/ads/accounts?accountId=${account.id}`, undefined, agency.key)).adAccounts as unknown[];
      assert.equal(listed.length, 1206);
      const recorded = await t.runtime.deps.store.db.selectFrom('ad_objects').select('platform_id').where('organization_id', '=', agency.organizationId).execute();
      assert.equal(recorded.length, 1206);
      // Several ad accounts: one must be named.
      assert.deepEqual(refused(await api('GET', `/ads/campaigns?accountId=${account.id}`, undefined, agency.key)), [400, 'adAccountId']);
    });

    test('campaign → ad set → creative → ad by hand: confirm required, all PAUSED, money in minor units', async () => {
      // No confirm: 400 naming it, and nothing reaches the platform.
      let seq = mark();
      const base = { accountId: fb.id, adAccountId: fb.adAccountId, name: 'Spring bread', goal: 'traffic', budget: { amount: 12.5, type: 'daily' } };
      assert.deepEqual(refused(await api('POST', '/ads/campaigns', base)), [400, 'confirm']);
      assert.deepEqual(refused(await api('POST', '/ads/campaigns', { ...base, confirm: false })), [400, 'confirm']);
      assert.deepEqual(callsSince(seq), []);

      seq = mark();
      // A campaign budget (12.50 USD a day) goes out as 1250 cents.
      const budgeted = ok(await api('POST', '/ads/campaigns', { ...base, confirm: true }), 201).campaign as Record<string, unknown>;
      assert.deepEqual([budgeted.status, budgeted.objective, budgeted.dailyBudget, budgeted.currency, budgeted.accountId], ['PAUSED', 'OUTCOME_TRAFFIC', 12.5, 'USD', fb.id]);
      const created = callsSince(seq).find((e) => e.method === 'POST' && e.path.endsWith(`/${fb.adAccountId}/campaigns`));
      assert.ok(created, 'the campaign create reached the sandbox');
      assert.deepEqual([form(created.body).status, form(created.body).daily_budget, form(created.body).objective], ['PAUSED', '1250', 'OUTCOME_TRAFFIC']);
      assert.equal(sandboxAds().campaigns.get(String(budgeted.id))?.status, 'PAUSED');
      assert.equal(sandboxAds().campaigns.get(String(budgeted.id))?.dailyBudget, 1250);

      // The chain's campaign leaves the budget to its ad set.
      const { budget: _budget, ...unbudgeted } = base;
      const campaign = ok(await api('POST', '/ads/campaigns', { ...unbudgeted, confirm: true }), 201).campaign as Record<string, unknown>;
      assert.deepEqual([campaign.dailyBudget, campaign.lifetimeBudget], [null, null]);
      const campaignId = String(campaign.id);

      const adSetBody = {
        accountId: fb.id,
        adAccountId: fb.adAccountId,
        campaignId,
        name: 'Dublin bakers',
        targeting: { geo_locations: { countries: ['IE'] }, age_min: 21, flexible_spec: [{ interests: [{ id: '6003020834693', name: 'Baking' }] }] },
        dailyBudget: 20.05,
      };
      seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/adsets', adSetBody)), [400, 'confirm']);
      assert.deepEqual(callsSince(seq), []);
      const adSet = ok(await api('POST', '/ads/adsets', { ...adSetBody, confirm: true }), 201).adSet as Record<string, unknown>;
      assert.deepEqual([adSet.status, adSet.campaignId, adSet.dailyBudget, adSet.optimizationGoal, adSet.billingEvent], ['PAUSED', campaignId, 20.05, 'LINK_CLICKS', 'IMPRESSIONS']);
      const adSetCall = callsSince(seq).find((e) => e.method === 'POST' && e.path.endsWith('/adsets'));
      assert.equal(form(adSetCall?.body).daily_budget, '2005');
      assert.equal(form(adSetCall?.body).status, 'PAUSED');
      assert.deepEqual((JSON.parse(form(adSetCall?.body).targeting ?? '{}') as { targeting_automation?: unknown }).targeting_automation, { advantage_audience: 0 });
      const adSetId = String(adSet.id);

      // A creative from a live post of the Page, and a link creative with a call to action.
      const page = t.sandbox.people.pages.get(fb.pageId);
      assert.ok(page);
      const live = sandboxPost(t.sandbox, page, { kind: 'status', message: 'Rye is back' });
      seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/creatives', { accountId: fb.id, objectStoryId: live.id })), [400, 'confirm']);
      assert.deepEqual(callsSince(seq), []);
      const creative = ok(await api('POST', '/ads/creatives', { accountId: fb.id, objectStoryId: live.id, name: 'Rye post', confirm: true }), 201).creative as Record<string, unknown>;
      assert.equal(creative.objectStoryId, live.id);
      assert.equal(sandboxAds().creatives.get(String(creative.id))?.objectStoryId, live.id);
      const link = ok(
        await api('POST', '/ads/creatives', { accountId: fb.id, link: 'https://bakery.example/rye', message: 'Fresh rye', imageUrl: 'https://bakery.example/rye.jpg', callToAction: { type: 'SHOP_NOW' }, confirm: true }),
        201,
      ).creative as Record<string, unknown>;
      const spec = sandboxAds().creatives.get(String(link.id))?.objectStorySpec as { page_id: string; link_data: { link: string; call_to_action: { type: string; value: { link: string } } } };
      assert.deepEqual([spec.page_id, spec.link_data.link, spec.link_data.call_to_action.type, spec.link_data.call_to_action.value.link], [fb.pageId, 'https://bakery.example/rye', 'SHOP_NOW', 'https://bakery.example/rye']);
      assert.deepEqual(refused(await api('POST', '/ads/creatives', { accountId: fb.id, link: 'https://bakery.example', confirm: true })), [400, 'message']);
      assert.deepEqual(refused(await api('POST', '/ads/creatives', { accountId: fb.id, confirm: true })), [400, 'objectStoryId']);

      seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/ads', { adSetId, creativeId: creative.id, name: 'Rye ad' })), [400, 'confirm']);
      assert.deepEqual(callsSince(seq), []);
      const ad = ok(await api('POST', '/ads/ads', { adSetId, creativeId: creative.id, name: 'Rye ad', confirm: true }), 201).ad as Record<string, unknown>;
      assert.deepEqual([ad.status, ad.effectiveStatus, ad.adSetId, ad.creativeId, ad.campaignId], ['PAUSED', 'PAUSED', adSetId, creative.id, campaignId]);
      assert.equal(sandboxAds().ads.get(String(ad.id))?.status, 'PAUSED');

      // Reads and lists.
      assert.equal((ok(await api('GET', `/ads/campaigns/${campaignId}?accountId=${fb.id}`)).campaign as Record<string, unknown>).name, 'Spring bread');
      assert.equal((ok(await api('GET', `/ads/adsets/${adSetId}`)).adSet as Record<string, unknown>).name, 'Dublin bakers');
      assert.equal((ok(await api('GET', `/ads/ads/${String(ad.id)}`)).ad as Record<string, unknown>).name, 'Rye ad');
      assert.deepEqual((ok(await api('GET', `/ads/campaigns?accountId=${fb.id}&adAccountId=${fb.adAccountId}`)).campaigns as Array<{ id: string }>).map((c) => c.id).sort(), [String(budgeted.id), campaignId].sort());
      assert.deepEqual((ok(await api('GET', `/ads/campaigns?adAccountId=${fb.adAccountId}&statuses=ACTIVE`)).campaigns as unknown[]).length, 0);
      assert.deepEqual((ok(await api('GET', `/ads/adsets?parentId=${campaignId}`)).adSets as Array<{ id: string }>).map((s) => s.id), [adSetId]);
      assert.deepEqual((ok(await api('GET', `/ads/ads?parentId=${adSetId}`)).ads as Array<{ id: string }>).map((a) => a.id), [ad.id]);
      assert.deepEqual((ok(await api('GET', '/ads/creatives')).creatives as Array<{ id: string }>).map((c) => c.id).sort(), [creative.id, link.id].sort());

      // Paging: one at a time, with the opaque cursor.
      const first = ok(await api('GET', '/ads/creatives?limit=1'));
      assert.equal((first.creatives as unknown[]).length, 1);
      assert.match(String(first.after), /^a1\./);
      const second = ok(await api('GET', `/ads/creatives?limit=1&after=${String(first.after)}`));
      assert.equal((second.creatives as unknown[]).length, 1);
      assert.equal(second.after, null);
      assert.deepEqual(refused(await api('GET', '/ads/creatives?after=nope')), [400, 'after']);

      // PATCH: a name is free; ACTIVE and budgets need confirm.
      seq = mark();
      assert.deepEqual(refused(await api('PATCH', `/ads/ads/${String(ad.id)}`, { status: 'ACTIVE' })), [400, 'confirm']);
      assert.deepEqual(refused(await api('PATCH', `/ads/campaigns/${String(budgeted.id)}`, { accountId: fb.id, budget: { amount: 30, type: 'daily' } })), [400, 'confirm']);
      assert.deepEqual(refused(await api('PATCH', `/ads/adsets/${adSetId}`, { dailyBudget: 30 })), [400, 'confirm']);
      assert.deepEqual(refused(await api('PATCH', `/ads/adsets/${adSetId}`, {})), [400, 'body']);
      assert.deepEqual(callsSince(seq), []);
      assert.equal((ok(await api('PATCH', `/ads/ads/${String(ad.id)}`, { name: 'Rye ad 2' })).ad as Record<string, unknown>).name, 'Rye ad 2');
      const activeAd = ok(await api('PATCH', `/ads/ads/${String(ad.id)}`, { status: 'ACTIVE', confirm: true })).ad as Record<string, unknown>;
      assert.deepEqual([activeAd.status, activeAd.effectiveStatus], ['ACTIVE', 'CAMPAIGN_PAUSED']);
      seq = mark();
      const renamed = ok(await api('PATCH', `/ads/campaigns/${String(budgeted.id)}`, { accountId: fb.id, name: 'Spring bread 2', budgets: { amount: 30.1, type: 'daily' }, confirm: true })).campaign as Record<string, unknown>;
      assert.deepEqual([renamed.name, renamed.dailyBudget, renamed.status], ['Spring bread 2', 30.1, 'PAUSED']);
      assert.equal(form(callsSince(seq).find((e) => e.method === 'POST' && e.path.endsWith(`/${String(budgeted.id)}`))?.body).daily_budget, '3010');
      const adSetPatched = ok(await api('PATCH', `/ads/adsets/${adSetId}`, { status: 'PAUSED', dailyBudget: 25, confirm: true })).adSet as Record<string, unknown>;
      assert.equal(adSetPatched.dailyBudget, 25);
      assert.equal(sandboxAds().adsets.get(adSetId)?.dailyBudget, 2500);

      // The platform's validation comes back with Meta's user message.
      const low = await api('POST', '/ads/adsets', { ...adSetBody, dailyBudget: 0.5, confirm: true });
      assert.deepEqual(refused(low), [400, 'invalid_request']);
      assert.match(low.body.error?.message ?? '', /Your Budget Is Too Low: The minimum budget/);
    });

    test('a creative from an Instagram post, as the Instagram account linked to the Page', async () => {
      const { sealer, store, clock } = t.runtime.deps;
      const igUserId = '17841400000000077';
      const now = clock.now();
      await store.db
        .insertInto('accounts')
        .values({
          id: `acc_ig${String(now)}`, organization_id: org, platform: 'instagram', platform_user_id: igUserId, username: 'sandbox.bakery', display_name: null, avatar_url: null, external_id: null,
          status: 'active', approval_required: 0, access_token_enc: sealer.seal('unused'), refresh_token_enc: null, token_expires_at: null, scopes: '', metadata: JSON.stringify({ login: 'facebook', pageId: fb.pageId }),
          connected_at: now, updated_at: now,
        })
        .execute();
      const body = { accountId: fb.id, instagramMediaId: '17900000000000123', callToAction: { type: 'LEARN_MORE', link: 'https://bakery.example/menu' }, confirm: true };
      const creative = ok(await api('POST', '/ads/creatives', body), 201).creative as Record<string, unknown>;
      assert.deepEqual([creative.instagramMediaId, creative.callToActionType], ['17900000000000123', 'LEARN_MORE']);
      const stored = t.sandbox.ads.creatives.get(String(creative.id));
      assert.deepEqual([stored?.sourceInstagramMediaId, stored?.instagramUserId, stored?.callToAction?.type], ['17900000000000123', igUserId, 'LEARN_MORE']);

      // Another organization's Page has no linked Instagram account: it must be named.
      const other = await t.tenant();
      const lone = await addAdsAccount(t, other.organizationId);
      const seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/creatives', { ...body, accountId: lone.id }, other.key)), [400, 'instagramUserId']);
      assert.equal(callsSince(seq).filter((e) => e.method === 'POST').length, 0);
    });

    test('money in a currency without minor units (JPY): whole amounts sent as they are, decimals refused', async () => {
      const { organizationId, key: yenKey } = await t.tenant();
      const yen = await addAdsAccount(t, organizationId, { currency: 'JPY' });
      // Its ad accounts were never listed: the one named is read from the platform on first use.
      let seq = mark();
      const yenCampaign = { accountId: yen.id, adAccountId: yen.adAccountId, name: 'Yen', goal: 'awareness' };
      assert.deepEqual(refused(await api('POST', '/ads/campaigns', { ...yenCampaign, budget: { amount: 1500.5, type: 'daily' }, confirm: true }, yenKey)), [400, 'budget.amount']);
      assert.equal(callsSince(seq).filter((e) => e.method === 'POST').length, 0);
      assert.ok(callsSince(seq).some((e) => e.method === 'GET' && e.path.endsWith(`/${yen.adAccountId}`)));
      seq = mark();
      const campaign = ok(await api('POST', '/ads/campaigns', { ...yenCampaign, budget: { amount: 1500, type: 'daily' }, confirm: true }, yenKey), 201).campaign as Record<string, unknown>;
      assert.deepEqual([campaign.dailyBudget, campaign.currency], [1500, 'JPY']);
      assert.equal(form(callsSince(seq).find((e) => e.method === 'POST')?.body).daily_budget, '1500');
    });

    test('boost a post published through the service: four objects, all PAUSED, the post as the creative', async () => {
      const res = await createPost(t, key, { content: 'Our sourdough is back', publishNow: true, platforms: [{ accountId: fb.id }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const platformPostId = post.targets[0]?.platformPostId ?? '';

      const boost = { accountId: fb.id, adAccountId: fb.adAccountId, postId: post.id, budget: { amount: 5, type: 'daily' }, targeting: { geo_locations: { countries: ['IE'] } } };
      let seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/boost', boost)), [400, 'confirm']);
      assert.deepEqual(callsSince(seq), []);
      seq = mark();
      const boosted = ok(await api('POST', '/ads/boost', { ...boost, confirm: true }), 201);
      assert.equal(boosted.status, 'PAUSED');
      assert.equal(boosted.objectStoryId, platformPostId.includes('_') ? platformPostId : `${fb.pageId}_${platformPostId}`);
      const ads = sandboxAds();
      assert.equal(ads.campaigns.get(String(boosted.campaignId))?.status, 'PAUSED');
      assert.equal(ads.campaigns.get(String(boosted.campaignId))?.objective, 'OUTCOME_ENGAGEMENT');
      const adSet = ads.adsets.get(String(boosted.adSetId));
      assert.deepEqual([adSet?.status, adSet?.dailyBudget, adSet?.optimizationGoal, (adSet?.promotedObject as { page_id: string }).page_id], ['PAUSED', 500, 'POST_ENGAGEMENT', fb.pageId]);
      assert.equal(ads.creatives.get(String(boosted.creativeId))?.objectStoryId, boosted.objectStoryId);
      assert.equal(ads.ads.get(String(boosted.adId))?.status, 'PAUSED');
      const creates = callsSince(seq).filter((e) => e.method === 'POST');
      assert.deepEqual(creates.map((e) => e.path.split('/').at(-1)), ['adcreatives', 'campaigns', 'adsets', 'ads']);
      for (const call of creates.filter((e) => !e.path.endsWith('adcreatives'))) assert.equal(form(call.body).status, 'PAUSED');
      // Recorded: the organization can read them.
      assert.equal((ok(await api('GET', `/ads/ads/${String(boosted.adId)}`)).ad as Record<string, unknown>).status, 'PAUSED');

      // By platformPostId too; an unpublished post id or both ids are refused before any call.
      ok(await api('POST', '/ads/boost', { accountId: fb.id, adAccountId: fb.adAccountId, platformPostId, budget: { amount: 50, type: 'lifetime' }, schedule: { endTime: '2030-01-01T00:00:00Z' }, confirm: true }), 201);
      seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/boost', { ...boost, postId: 'post_nope', confirm: true })), [400, 'postId']);
      assert.deepEqual(refused(await api('POST', '/ads/boost', { ...boost, platformPostId, confirm: true })), [400, 'postId']);
      assert.deepEqual(refused(await api('POST', '/ads/boost', { ...boost, budget: { amount: 5, type: 'lifetime' }, confirm: true })), [400, 'schedule.endTime']);
      assert.deepEqual(refused(await api('POST', '/ads/boost', { ...boost, budget: { amount: -5, type: 'daily' }, confirm: true })), [400, 'budget.amount']);
      assert.deepEqual(callsSince(seq), []);

      // A failed step deletes the boost's campaign again: nothing half-built stays.
      const before = ads.campaigns.size;
      const failed = await api('POST', '/ads/boost', { ...boost, targeting: { geo_locations: { countries: ['IE'] }, age_min: 5 }, confirm: true });
      assert.deepEqual(refused(failed), [400, 'invalid_request']);
      assert.equal(ads.campaigns.size, before + 1);
      assert.equal([...ads.campaigns.values()].at(-1)?.status, 'DELETED');

      // A post the Page does not have (deleted, say) fails at the creative: no campaign at all.
      const campaigns = ads.campaigns.size;
      const gone = await api('POST', '/ads/boost', { ...boost, postId: undefined, platformPostId: `${fb.pageId}_999999`, confirm: true });
      assert.deepEqual(refused(gone), [400, 'invalid_request']);
      assert.match(gone.body.error?.message ?? '', /Post not available/);
      assert.equal(ads.campaigns.size, campaigns);
    });

    test('audiences: created with confirm, members hashed before upload, never stored or logged raw, deleted', async () => {
      let seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/audiences', { accountId: fb.id, name: 'Loyal customers' })), [400, 'confirm']);
      assert.deepEqual(callsSince(seq), []);
      const audience = ok(await api('POST', '/ads/audiences', { name: 'Loyal customers', description: 'from the till', confirm: true }), 201).audience as Record<string, unknown>;
      const id = String(audience.id);
      assert.deepEqual([audience.name, audience.subtype, audience.approximateCountLower], ['Loyal customers', 'CUSTOM', -1]);

      const emails = ['  Dana.W@Example.COM ', 'lee@example.org', 'lee@example.org'];
      const phones = ['+1 (555) 010-9999', '0044 20 7946 0000'];
      seq = mark();
      const added = ok(await api('POST', `/ads/audiences/${id}/users`, { emails, phones }));
      assert.deepEqual(added, { audienceId: id, received: 4, invalid: 0 });
      const uploads = callsSince(seq).filter((e) => e.method === 'POST' && e.path.endsWith(`/${id}/users`));
      const payloads = uploads.map((e) => JSON.parse(form(e.body).payload ?? '{}') as { schema: string; data: string[] });
      assert.deepEqual(payloads, [
        { schema: 'EMAIL_SHA256', data: [sha('dana.w@example.com'), sha('lee@example.org')] },
        { schema: 'PHONE_SHA256', data: [sha('15550109999'), sha('442079460000')] },
      ]);
      assert.ok(logged.some((line) => line.includes(`/ads/audiences/${id}/users`)), 'the service logged the request (so the log below is the real one)');
      const everything = JSON.stringify(t.sandbox.journal.list()) + logged.join('');
      for (const raw of ['dana.w@example', 'Dana.W@Example', 'lee@example.org', '555) 010', '15550109999']) assert.ok(!everything.includes(raw), `${raw} left the process or was logged`);
      const stored = JSON.stringify(await t.runtime.deps.store.db.selectFrom('ad_objects').selectAll().execute());
      assert.ok(!stored.includes('example'));
      assert.equal(t.sandbox.ads.audiences.get(id)?.members.size, 4);

      // A bad value is named by its position, not shown back; nothing is sent.
      seq = mark();
      const bad = await api('POST', `/ads/audiences/${id}/users`, { emails: ['ok@example.com', 'secret-not-an-email'] });
      assert.deepEqual(refused(bad), [400, 'emails[1]']);
      assert.ok(!JSON.stringify(bad.body).includes('secret-not-an-email'));
      assert.deepEqual(refused(await api('POST', `/ads/audiences/${id}/users`, {})), [400, 'emails']);
      assert.deepEqual(callsSince(seq), []);

      assert.equal((ok(await api('GET', `/ads/audiences/${id}`)).audience as Record<string, unknown>).name, 'Loyal customers');
      assert.deepEqual((ok(await api('GET', `/ads/audiences?accountId=${fb.id}`)).audiences as Array<{ id: string }>).map((a) => a.id), [id]);
      assert.deepEqual(ok(await api('DELETE', `/ads/audiences/${id}`)), { deleted: true });
      assert.equal(t.sandbox.ads.audiences.get(id)?.deleted, true);
      assert.deepEqual(refused(await api('GET', `/ads/audiences/${id}`)), [404, 'Audience not found']);
    });

    test('insights: levels, breakdowns, time increments, deterministic numbers; bad queries named', async () => {
      const campaign = ok(await api('POST', '/ads/campaigns', { accountId: fb.id, adAccountId: fb.adAccountId, name: 'Insights', objective: 'OUTCOME_AWARENESS', confirm: true }), 201).campaign as Record<string, unknown>;
      const adSet = ok(await api('POST', '/ads/adsets', { accountId: fb.id, adAccountId: fb.adAccountId, campaignId: campaign.id, name: 'All US', targeting: { geo_locations: { countries: ['US'] } }, dailyBudget: 40, confirm: true }), 201).adSet as Record<string, unknown>;
      const page = t.sandbox.people.pages.get(fb.pageId);
      assert.ok(page);
      const live = sandboxPost(t.sandbox, page, { kind: 'status', message: 'Croissants' });
      const creative = ok(await api('POST', '/ads/creatives', { objectStoryId: live.id, confirm: true }), 201).creative as Record<string, unknown>;
      const ad = ok(await api('POST', '/ads/ads', { adSetId: adSet.id, creativeId: creative.id, name: 'Croissant ad', confirm: true }), 201).ad as Record<string, unknown>;
      for (const [path, id] of [['campaigns', campaign.id], ['adsets', adSet.id], ['ads', ad.id]] as const) ok(await api('PATCH', `/ads/${path}/${String(id)}`, { accountId: fb.id, status: 'ACTIVE', confirm: true }));
      t.sandbox.clock.advance(3 * 86_400_000);

      const q = `objectId=${String(campaign.id)}&datePreset=last_7d&level=ad`;
      const first = ok(await api('GET', `/ads/insights?${q}`));
      assert.deepEqual(ok(await api('GET', `/ads/insights?${q}`)), first);
      const rows = first.rows as Array<Record<string, unknown>>;
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.adId, ad.id);
      assert.equal(rows[0]?.currency, 'USD');
      assert.ok(typeof rows[0]?.impressions === 'number' && rows[0].impressions > 0);
      assert.ok(typeof rows[0]?.spend === 'number' && rows[0].spend > 0 && rows[0].spend <= 3 * 40);

      const daily = ok(await api('GET', `/ads/insights?objectId=${String(ad.id)}&datePreset=last_7d&timeIncrement=1`)).rows as Array<Record<string, unknown>>;
      assert.ok(daily.length >= 2 && daily.every((r) => r.dateStart === r.dateStop));
      const split = ok(await api('GET', `/ads/insights?objectId=${String(adSet.id)}&datePreset=last_7d&breakdowns=age,gender`)).rows as Array<{ impressions: number; breakdowns: { age: string; gender: string } }>;
      assert.ok(split.length > 1 && split.every((r) => r.breakdowns.age && r.breakdowns.gender));
      assert.equal(split.reduce((n, r) => n + r.impressions, 0), (ok(await api('GET', `/ads/insights?objectId=${String(adSet.id)}&datePreset=last_7d`)).rows as Array<{ impressions: number }>)[0]?.impressions);
      // A report longer than one page of Meta's (100 rows) is read whole: 7 days × 18 age and gender rows.
      t.sandbox.clock.advance(4 * 86_400_000);
      const total = (ok(await api('GET', `/ads/insights?objectId=${String(ad.id)}&datePreset=last_7d`)).rows as Array<{ impressions: number }>)[0]?.impressions;
      const long = ok(await api('GET', `/ads/insights?objectId=${String(ad.id)}&datePreset=last_7d&timeIncrement=1&breakdowns=age,gender`)).rows as Array<{ impressions: number }>;
      assert.ok(long.length > 100, `${long.length} rows`);
      assert.equal(long.reduce((n, r) => n + r.impressions, 0), total);
      const range = ok(await api('GET', `/ads/insights?objectId=${fb.adAccountId}&since=2020-01-01&until=2020-01-31`));
      assert.deepEqual(range.rows, []);

      const seq = mark();
      assert.deepEqual(refused(await api('GET', '/ads/insights?since=2026-01-01')), [400, 'until']);
      assert.deepEqual(refused(await api('GET', '/ads/insights?datePreset=last_7d&since=2026-01-01&until=2026-01-02')), [400, 'datePreset']);
      assert.deepEqual(refused(await api('GET', '/ads/insights?breakdowns=shoe_size')), [400, 'breakdowns']);
      assert.deepEqual(refused(await api('GET', '/ads/insights?level=galaxy')), [400, 'query.level']);
      assert.deepEqual(refused(await api('GET', '/ads/insights?objectId=999999999')), [404, 'Ad object not found']);
      assert.deepEqual(refused(await api('GET', '/ads/insights?objectId=act_999999999', undefined, (await t.tenant()).key)), [400, 'objectId']);
      assert.deepEqual(callsSince(seq), []);
    });

    test('targeting search: interests, locations, locales and behaviors', async () => {
      const yoga = ok(await api('GET', `/ads/targeting/search?accountId=${fb.id}&type=adinterest&q=yoga`)).results as Array<{ id: string; name: string }>;
      assert.deepEqual(yoga.map((r) => [r.id, r.name]), [['6003306084421', 'Yoga']]);
      const dublin = ok(await api('GET', `/ads/targeting/search?accountId=${fb.id}&type=adgeolocation&q=dub&locationTypes=city`)).results as Array<{ key: string; type: string }>;
      assert.deepEqual(dublin.map((r) => [r.key, r.type]), [['2418956', 'city']]);
      const search = callsSince(mark() - 1).at(-1);
      assert.equal(search?.query.location_types, '["city"]');
      const similar = ok(await api('GET', `/ads/targeting/search?accountId=${fb.id}&type=adinterestsuggestion&q=Baking`)).results as Array<{ name: string }>;
      assert.ok(similar.some((r) => r.name === 'Coffee'));
      const locales = ok(await api('GET', `/ads/targeting/search?accountId=${fb.id}&type=adlocale&q=english`)).results as unknown[];
      assert.equal(locales.length, 2);
      const behaviors = ok(await api('GET', `/ads/targeting/search?accountId=${fb.id}&type=adTargetingCategory&class=behaviors`)).results as Array<{ type: string }>;
      assert.ok(behaviors.length > 0 && behaviors.every((b) => b.type === 'behaviors'));
      assert.deepEqual(refused(await api('GET', `/ads/targeting/search?accountId=${fb.id}&type=planets`)), [400, 'query.type']);
      assert.deepEqual(refused(await api('GET', `/ads/targeting/search?accountId=${fb.id}&type=adgeolocation&locationTypes=moon`)), [400, 'query.locationTypes']);
    });

    test("another organization's ad objects are 404 (400 in a body), with no platform call", async () => {
      const other = await t.tenant();
      // Objects the first organization built through the service (so it has them on record).
      const built = [...t.sandbox.ads.ads.values()].find((a) => a.accountId === fb.adAccountId && a.status !== 'DELETED');
      assert.ok(built);
      const [campaign, adSet, ad, creative] = [built.campaignId, built.adsetId, built.id, built.creativeId];
      assert.equal((await api('GET', `/ads/ads/${ad}`)).status, 200);
      const audience = String((ok(await api('POST', '/ads/audiences', { accountId: fb.id, name: 'Ours', confirm: true }), 201).audience as { id: string }).id);
      const seq = mark();
      for (const path of [`/ads/campaigns/${campaign}`, `/ads/adsets/${adSet}`, `/ads/ads/${ad}`, `/ads/audiences/${audience}`]) {
        assert.equal((await api('GET', path, undefined, other.key)).status, 404, path);
      }
      assert.equal((await api('DELETE', `/ads/audiences/${audience}`, undefined, other.key)).status, 404);
      assert.equal((await api('POST', `/ads/audiences/${audience}/users`, { emails: ['a@example.com'] }, other.key)).status, 404);
      assert.equal(t.sandbox.ads.audiences.get(audience)?.deleted, false);
      assert.equal((await api('PATCH', `/ads/campaigns/${campaign}`, { accountId: fb.id, status: 'PAUSED' }, other.key)).status, 404);
      assert.equal((await api('PATCH', `/ads/ads/${ad}`, { status: 'ACTIVE', confirm: true }, other.key)).status, 404);
      assert.equal((await api('GET', `/ads/adsets?parentId=${campaign}`, undefined, other.key)).status, 404);
      assert.equal((await api('GET', `/ads/insights?objectId=${campaign}`, undefined, other.key)).status, 404);
      assert.equal((await api('GET', `/ads/accounts?accountId=${fb.id}`, undefined, other.key)).status, 404);
      assert.deepEqual(refused(await api('POST', '/ads/ads', { adSetId: adSet, creativeId: creative, name: 'theft', confirm: true }, other.key)), [400, 'adSetId']);
      assert.deepEqual(refused(await api('POST', '/ads/adsets', { accountId: fb.id, adAccountId: fb.adAccountId, campaignId: campaign, name: 'x', targeting: {}, dailyBudget: 5, confirm: true }, other.key)), [400, 'campaignId']);
      assert.deepEqual(refused(await api('GET', '/ads/creatives', undefined, other.key)), [400, 'adAccountId']);
      // Its ad account is not usable through another organization's account.
      assert.deepEqual(refused(await api('POST', '/ads/campaigns', { accountId: fb.id, adAccountId: fb.adAccountId, name: 'x', goal: 'traffic', confirm: true }, other.key)), [404, 'Account not found']);
      assert.deepEqual(callsSince(seq), []);
    });

    test('bodies as the contract gives them: campaigns, ad sets and boosts name the account and the ad account', async () => {
      // The organization has exactly one ad account, so nothing could be ambiguous: still refused.
      const { organizationId, key: soleKey } = await t.tenant();
      const sole = await addAdsAccount(t, organizationId);
      ok(await api('GET', `/ads/accounts?accountId=${sole.id}`, undefined, soleKey));
      const live = sandboxPost(t.sandbox, t.sandbox.people.pages.get(sole.pageId) ?? assert.fail('no Page'), { kind: 'status', message: 'Scones' });
      const named = { accountId: sole.id, adAccountId: sole.adAccountId };
      const campaign = ok(await api('POST', '/ads/campaigns', { ...named, name: 'Sole', goal: 'traffic', confirm: true }, soleKey), 201).campaign as { id: string };
      const adSet = { ...named, campaignId: campaign.id, name: 'Sole set', targeting: { geo_locations: { countries: ['IE'] } }, dailyBudget: 5, confirm: true };
      const boost = { ...named, platformPostId: live.id, budget: { amount: 5, type: 'daily' }, confirm: true };
      const seq = mark();
      const without = (body: Record<string, unknown>, field: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== field));
      for (const [path, body] of [['/ads/campaigns', { ...named, name: 'x', goal: 'traffic', confirm: true }], ['/ads/adsets', adSet], ['/ads/boost', boost]] as const) {
        for (const field of ['accountId', 'adAccountId']) {
          const res = await api('POST', path, without(body, field), soleKey);
          assert.equal(res.status, 400, `${path} without ${field}`);
          assert.equal(res.body.error?.message, `${field}: required`, `${path} without ${field}`);
        }
      }
      const patch = await api('PATCH', `/ads/campaigns/${campaign.id}`, { name: 'renamed' }, soleKey);
      assert.deepEqual([patch.status, patch.body.error?.message], [400, 'accountId: required']);
      assert.deepEqual(callsSince(seq), []);
      // Named, they work; an ad set's ad account must be its campaign's.
      ok(await api('POST', '/ads/adsets', adSet, soleKey), 201);
      assert.deepEqual(refused(await api('POST', '/ads/adsets', { ...adSet, adAccountId: fb.adAccountId }, soleKey)), [400, 'campaignId']);
      ok(await api('PATCH', `/ads/campaigns/${campaign.id}`, { accountId: sole.id, name: 'renamed' }, soleKey));
    });

    test('approval (key, organization or account) refuses every ads write before any platform call; reads stay allowed', async () => {
      const { store, clock } = t.runtime.deps;
      /** An organization with its own facebook account and one of each ad object, built by a key without approval. */
      const built = async () => {
        const tenant = await t.tenant();
        const account = await addAdsAccount(t, tenant.organizationId);
        const as = (method: string, path: string, body?: unknown) => api(method, path, body, tenant.key);
        const named = { accountId: account.id, adAccountId: account.adAccountId };
        const live = sandboxPost(t.sandbox, t.sandbox.people.pages.get(account.pageId) ?? assert.fail('no Page'), { kind: 'status', message: 'Bagels' });
        const campaign = (ok(await as('POST', '/ads/campaigns', { ...named, name: 'Built', goal: 'traffic', confirm: true }), 201).campaign as { id: string }).id;
        const adSet = (ok(await as('POST', '/ads/adsets', { ...named, campaignId: campaign, name: 'Built set', targeting: { geo_locations: { countries: ['IE'] } }, dailyBudget: 5, confirm: true }), 201).adSet as { id: string }).id;
        const creative = (ok(await as('POST', '/ads/creatives', { accountId: account.id, objectStoryId: live.id, confirm: true }), 201).creative as { id: string }).id;
        const ad = (ok(await as('POST', '/ads/ads', { adSetId: adSet, creativeId: creative, name: 'Built ad', confirm: true }), 201).ad as { id: string }).id;
        const audience = (ok(await as('POST', '/ads/audiences', { accountId: account.id, name: 'Built audience', confirm: true }), 201).audience as { id: string }).id;
        ok(await as('POST', `/ads/audiences/${audience}/users`, { emails: ['one@example.com'] }));
        return { ...tenant, account, named, live, campaign, adSet, creative, ad, audience };
      };
      type Built = Awaited<ReturnType<typeof built>>;
      const writes = (b: Built): Array<[string, string, unknown]> => [
        ['POST', '/ads/boost', { ...b.named, platformPostId: b.live.id, budget: { amount: 5, type: 'daily' }, confirm: true }],
        ['POST', '/ads/campaigns', { ...b.named, name: 'More', goal: 'traffic', confirm: true }],
        ['POST', '/ads/adsets', { ...b.named, campaignId: b.campaign, name: 'More', targeting: { geo_locations: { countries: ['IE'] } }, dailyBudget: 5, confirm: true }],
        ['POST', '/ads/creatives', { accountId: b.account.id, objectStoryId: b.live.id, confirm: true }],
        // No account named: the organization's only ad account, and so its account.
        ['POST', '/ads/creatives', { objectStoryId: b.live.id, confirm: true }],
        ['POST', '/ads/ads', { adSetId: b.adSet, creativeId: b.creative, name: 'More', confirm: true }],
        ['POST', '/ads/audiences', { accountId: b.account.id, name: 'More', confirm: true }],
        ['POST', '/ads/audiences', { name: 'More', confirm: true }],
        ['POST', `/ads/audiences/${b.audience}/users`, { emails: ['two@example.com'] }],
        ['PATCH', `/ads/campaigns/${b.campaign}`, { accountId: b.account.id, status: 'ACTIVE', confirm: true }],
        ['PATCH', `/ads/campaigns/${b.campaign}`, { accountId: b.account.id, budgets: { amount: 50, type: 'daily' }, confirm: true }],
        ['PATCH', `/ads/campaigns/${b.campaign}`, { accountId: b.account.id, name: 'Renamed' }],
        ['PATCH', `/ads/adsets/${b.adSet}`, { status: 'ACTIVE', confirm: true }],
        ['PATCH', `/ads/adsets/${b.adSet}`, { dailyBudget: 50, confirm: true }],
        ['PATCH', `/ads/adsets/${b.adSet}`, { name: 'Renamed' }],
        ['PATCH', `/ads/ads/${b.ad}`, { status: 'ACTIVE', confirm: true }],
        ['PATCH', `/ads/ads/${b.ad}`, { name: 'Renamed' }],
        ['DELETE', `/ads/audiences/${b.audience}`, undefined],
      ];
      const reads = (b: Built): string[] => [
        `/ads/accounts?accountId=${b.account.id}`,
        `/ads/campaigns?accountId=${b.account.id}&adAccountId=${b.account.adAccountId}`,
        `/ads/campaigns/${b.campaign}`,
        `/ads/adsets?parentId=${b.campaign}`,
        `/ads/adsets/${b.adSet}`,
        `/ads/ads/${b.ad}`,
        '/ads/creatives',
        `/ads/audiences/${b.audience}`,
        `/ads/insights?objectId=${b.campaign}&datePreset=last_7d`,
        `/ads/targeting/search?accountId=${b.account.id}&type=adinterest&q=yoga`,
      ];
      const check = async (b: Built, apiKey: string, who: RegExp) => {
        const objects = () => JSON.stringify([t.sandbox.ads.campaigns.get(b.campaign), t.sandbox.ads.adsets.get(b.adSet), t.sandbox.ads.ads.get(b.ad), t.sandbox.ads.audiences.get(b.audience)], (_k, v: unknown) => (v instanceof Set ? [...(v as Set<unknown>)] : v));
        const before = { objects: objects(), campaigns: t.sandbox.ads.campaigns.size, creatives: t.sandbox.ads.creatives.size, audiences: t.sandbox.ads.audiences.size };
        const seq = mark();
        for (const [method, path, body] of writes(b)) {
          const res = await api(method, path, body, apiKey);
          assert.deepEqual(refused(res), [403, 'approval_required'], `${method} ${path}: ${JSON.stringify(res.body)}`);
          assert.match(res.body.error?.message ?? '', who);
        }
        assert.deepEqual(callsSince(seq), [], 'no platform call');
        assert.deepEqual({ objects: objects(), campaigns: t.sandbox.ads.campaigns.size, creatives: t.sandbox.ads.creatives.size, audiences: t.sandbox.ads.audiences.size }, before);
        for (const path of reads(b)) assert.equal((await api('GET', path, undefined, apiKey)).status, 200, path);
      };

      // A key with approval.
      const byKey = await built();
      const approvalKey = (await createKey(store.db, clock, byKey.organizationId, { approvalRequired: true })).key;
      await check(byKey, approvalKey, /^Approval applies to this API key or organization: /);
      // The organization's approval (a new key: keys are remembered with their organization's setting).
      const byOrg = await built();
      await store.db.updateTable('organizations').set({ approval_required: 1 }).where('id', '=', byOrg.organizationId).execute();
      await check(byOrg, (await createKey(store.db, clock, byOrg.organizationId, {})).key, /^Approval applies to this API key or organization: /);
      // The account's approval, with the organization's ordinary key.
      const byAccount = await built();
      await store.db.updateTable('accounts').set({ approval_required: 1 }).where('id', '=', byAccount.account.id).execute();
      await check(byAccount, byAccount.key, /^Approval applies to this account: /);
      const boost = await api('POST', '/ads/boost', writes(byAccount)[0]?.[2], byAccount.key);
      assert.equal(boost.body.error?.message, 'Approval applies to this account: boosting a post is refused');

      // An account whose ad accounts were never read: refused before the platform is asked which it has.
      const fresh = await t.tenant();
      const unread = await addAdsAccount(t, fresh.organizationId);
      const freshKey = (await createKey(store.db, clock, fresh.organizationId, { approvalRequired: true })).key;
      const seq = mark();
      assert.deepEqual(refused(await api('POST', '/ads/audiences', { accountId: unread.id, name: 'x', confirm: true }, freshKey)), [403, 'approval_required']);
      assert.deepEqual(refused(await api('POST', '/ads/campaigns', { accountId: unread.id, adAccountId: unread.adAccountId, name: 'x', goal: 'traffic', confirm: true }, freshKey)), [403, 'approval_required']);
      assert.deepEqual(callsSince(seq), []);
      // What a refusal is not: a missing confirm is still the 400 it was.
      assert.deepEqual(refused(await api('POST', '/ads/campaigns', { accountId: unread.id, adAccountId: unread.adAccountId, name: 'x', goal: 'traffic' }, freshKey)), [400, 'confirm']);
    });

    test('bad input is a 400 naming the field', async () => {
      const named = { accountId: fb.id, adAccountId: fb.adAccountId };
      const seq = mark();
      const cases: Array<[string, string, unknown, string]> = [
        ['POST', '/ads/campaigns', { ...named, name: 'x', confirm: true }, 'objective'],
        ['POST', '/ads/campaigns', { ...named, name: 'x', goal: 'fame', confirm: true }, 'goal'],
        ['POST', '/ads/campaigns', { ...named, name: 'x', goal: 'traffic', objective: 'OUTCOME_SALES', confirm: true }, 'goal'],
        ['POST', '/ads/campaigns', { ...named, name: 'x', goal: 'traffic', budget: { amount: 1.234, type: 'daily' }, confirm: true }, 'budget.amount'],
        ['POST', '/ads/campaigns', { ...named, name: 'x', goal: 'traffic', budget: { amount: 5, type: 'weekly' }, confirm: true }, 'budget.type'],
        ['POST', '/ads/adsets', { ...named, campaignId: '../me', name: 'x', targeting: {}, dailyBudget: 5, confirm: true }, 'campaignId'],
        ['POST', '/ads/adsets', { ...named, campaignId: '123', name: 'x', targeting: {}, confirm: true }, 'dailyBudget'],
        ['POST', '/ads/ads', { adSetId: '1', name: 'x', confirm: true }, 'creativeId'],
        ['GET', '/ads/campaigns?statuses=RUNNING', undefined, 'statuses'],
        ['GET', '/ads/campaigns/act_1', undefined, 'Campaign not found'],
        ['GET', '/ads/campaigns/123456', undefined, 'Campaign not found'],
        ['PATCH', '/ads/campaigns/123456', { accountId: fb.id, status: 'DELETED' }, 'status'],
        ['POST', '/ads/audiences/123/users', { emails: 'a@b.c' }, 'emails'],
        ['POST', '/ads/creatives', { accountId: fb.id, link: 'javascript:alert(1)', message: 'm', imageUrl: 'https://x.example/a.jpg', confirm: true }, 'link'],
      ];
      for (const [method, path, body, field] of cases) {
        const res = await api(method, path, body);
        assert.ok(res.status === 400 || res.status === 404, `${method} ${path}: ${res.status}`);
        assert.ok(res.body.error?.message.startsWith(field), `${method} ${path}: ${res.body.error?.message ?? ''} should name ${field}`);
      }
      assert.deepEqual(callsSince(seq), []);
    });
  });
}
