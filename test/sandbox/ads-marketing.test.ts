// The Marketing API against the sandbox (platforms.md §9, §1.4): ad accounts, the campaign →
// ad set → creative → ad chain created PAUSED (a boosted Page post), validation errors with
// error_user_msg, permissions, updates and effective_status, deterministic insights on the
// sandbox clock, custom audiences with hashed data, targeting search, usage headers, throttling.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { RunningSandbox } from '../../src/sandbox/index.ts';
import { createPost } from '../../src/sandbox/facebook/posts.ts';
import { graphErrorOf, json, sandbox } from './helpers.ts';

const APP = '888000111';
const SECRET = 'ads-secret';
const REDIRECT = 'https://app.example/callback/ads';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('Marketing API', () => {
  let sb: RunningSandbox;
  let graph: string;
  let token: string;
  let account: string;
  let pageId: string;
  const ids: Record<string, string> = {};

  const login = async (scopes: string[]) => {
    await fetch(`${sb.url}/_sandbox/consent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platform: 'facebook', decision: 'allow' }) });
    const dialog = await fetch(`${sb.url}/www.facebook.com/v24.0/dialog/oauth?client_id=${APP}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=${scopes.join(',')}&response_type=code`, { redirect: 'manual' });
    const code = new URL(dialog.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const short = (await json(await fetch(`${graph}/oauth/access_token?client_id=${APP}&client_secret=${SECRET}&redirect_uri=${encodeURIComponent(REDIRECT)}&code=${code}`))).access_token;
    return String((await json(await fetch(`${graph}/oauth/access_token?grant_type=fb_exchange_token&client_id=${APP}&client_secret=${SECRET}&fb_exchange_token=${String(short)}`))).access_token);
  };
  const post = (path: string, params: Record<string, unknown>, as = token) =>
    fetch(`${graph}${path}`, { method: 'POST', body: new URLSearchParams({ access_token: as, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) }) });
  const get = (path: string, as = token) => fetch(`${graph}${path}${path.includes('?') ? '&' : '?'}access_token=${as}`);
  const advance = (ms: number) => fetch(`${sb.url}/_sandbox/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms }) });

  before(async () => {
    sb = await sandbox({ apps: [{ platform: 'facebook', clientId: APP, clientSecret: SECRET }] });
    graph = `${sb.url}/graph.facebook.com/v24.0`;
    token = await login(['ads_management', 'ads_read', 'pages_show_list']);
    pageId = [...sb.state.people.pages.keys()][0] ?? '';
  });
  after(() => sb.close());

  test('/me/adaccounts and the account node with usage headers', async () => {
    const res = await get('/me/adaccounts?fields=id,account_id,name,currency,account_status');
    const list = (await res.json()) as { data: Array<{ id: string; currency: string; account_status: number }> };
    assert.equal(list.data.length, 1);
    account = list.data[0]?.id ?? '';
    assert.match(account, /^act_\d+$/);
    assert.deepEqual([list.data[0]?.currency, list.data[0]?.account_status], ['USD', 1]);
    const node = await get(`/${account}?fields=name,amount_spent,timezone_name`);
    const usage = JSON.parse(node.headers.get('x-ad-account-usage') ?? '{}') as { acc_id_util_pct: number };
    assert.ok(usage.acc_id_util_pct > 0);
    assert.ok(node.headers.get('x-business-use-case-usage'));
    assert.equal((await json(node)).amount_spent, '0');
  });

  test('campaign and ad set validation: code 100 with error_user_msg', async () => {
    const noCategories = await graphErrorOf(await post(`/${account}/campaigns`, { name: 'C', objective: 'OUTCOME_TRAFFIC', status: 'PAUSED' }));
    assert.equal(noCategories.code, 100);
    const legacy = (await (await post(`/${account}/campaigns`, { name: 'C', objective: 'LINK_CLICKS', special_ad_categories: [] })).json()) as { error: { code: number; error_user_msg: string } };
    assert.equal(legacy.error.code, 100);
    assert.match(legacy.error.error_user_msg, /OUTCOME_TRAFFIC/);
    const campaign = await json(await post(`/${account}/campaigns`, { name: 'Boost: Sourdough', objective: 'OUTCOME_ENGAGEMENT', status: 'PAUSED', special_ad_categories: [] }));
    ids.campaign = String(campaign.id);
    const adset = {
      name: 'Dublin bakers',
      campaign_id: ids.campaign,
      daily_budget: '1000',
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'POST_ENGAGEMENT',
      status: 'PAUSED',
      targeting: { geo_locations: { countries: ['IE'] }, age_min: 21, flexible_spec: [{ interests: [{ id: '6003020834693', name: 'Baking' }] }] },
    };
    const low = await graphErrorOf(await post(`/${account}/adsets`, { ...adset, daily_budget: '50' }));
    assert.deepEqual([low.code, low.error_subcode], [100, 1885272]);
    assert.equal((await graphErrorOf(await post(`/${account}/adsets`, { ...adset, optimization_goal: 'APP_INSTALLS' }))).code, 100);
    assert.equal((await graphErrorOf(await post(`/${account}/adsets`, { ...adset, optimization_goal: 'THRUPLAY', billing_event: 'LINK_CLICKS' }))).code, 100);
    assert.equal((await graphErrorOf(await post(`/${account}/adsets`, { ...adset, targeting: { geo_locations: {} } }))).code, 100);
    assert.equal((await graphErrorOf(await post(`/${account}/adsets`, { ...adset, targeting: { ...adset.targeting, flexible_spec: [{ interests: [{ id: '1' }] }] } }))).code, 100);
    assert.equal((await graphErrorOf(await post(`/${account}/adsets`, { ...adset, daily_budget: undefined, lifetime_budget: '10000' }))).code, 100);
    ids.adset = String((await json(await post(`/${account}/adsets`, adset))).id);
  });

  test('boosting a Page post: creative with object_story_id, ad PAUSED, effective_status through activation', async () => {
    assert.equal((await graphErrorOf(await post(`/${account}/adcreatives`, { name: 'x', object_story_id: 'nope' }))).code, 100);
    // Only a live post of the Page can be boosted.
    assert.equal((await graphErrorOf(await post(`/${account}/adcreatives`, { name: 'x', object_story_id: `${pageId}_1234567890` }))).code, 100);
    const page = sb.state.people.pages.get(pageId);
    assert.ok(page);
    const live = createPost(sb.state, page, { kind: 'status', message: 'Sourdough is back' });
    ids.creative = String((await json(await post(`/${account}/adcreatives`, { name: 'Sourdough post', object_story_id: live.id }))).id);
    const link = { page_id: pageId, link_data: { link: 'https://bakery.example', message: 'Fresh bread', image_url: 'https://bakery.example/b.jpg', call_to_action: { type: 'SHOP_NOW', value: { link: 'https://bakery.example' } } } };
    assert.equal((await post(`/${account}/adcreatives`, { name: 'Link ad', object_story_spec: link })).status, 200);
    ids.ad = String((await json(await post(`/${account}/ads`, { name: 'Boost ad', adset_id: ids.adset, creative: { creative_id: ids.creative }, status: 'PAUSED' }))).id);
    const ad = await json(await get(`/${ids.ad}?fields=name,status,effective_status,creative,adset_id,campaign_id`));
    assert.deepEqual([ad.status, ad.effective_status, (ad.creative as { id: string }).id], ['PAUSED', 'PAUSED', ids.creative]);
    assert.deepEqual(await json(await post(`/${ids.ad}`, { status: 'ACTIVE' })), { success: true });
    assert.equal((await json(await get(`/${ids.ad}?fields=effective_status`))).effective_status, 'CAMPAIGN_PAUSED');
    await post(`/${ids.campaign}`, { status: 'ACTIVE' });
    assert.equal((await json(await get(`/${ids.ad}?fields=effective_status`))).effective_status, 'ADSET_PAUSED');
    await post(`/${ids.adset}`, { status: 'ACTIVE', daily_budget: '2000', name: 'Dublin bakers 2' });
    assert.equal((await json(await get(`/${ids.ad}?fields=effective_status`))).effective_status, 'ACTIVE');
    const adset = await json(await get(`/${ids.adset}?fields=daily_budget,name,targeting`));
    assert.deepEqual([adset.daily_budget, adset.name], ['2000', 'Dublin bakers 2']);
    const listed = (await json(await get(`/${ids.campaign}/ads?fields=id,effective_status`))) as { data: Array<{ id: string }> };
    assert.deepEqual(listed.data.map((a) => a.id), [ids.ad]);
  });

  test('insights: deterministic numbers per level, time_increment and breakdowns', async () => {
    await advance(3 * 86_400_000);
    const q = 'fields=impressions,spend,clicks,reach,ctr,campaign_name,ad_id&date_preset=last_7d';
    const first = (await json(await get(`/${account}/insights?${q}&level=ad`))) as { data: Array<Record<string, string>> };
    const again = (await json(await get(`/${account}/insights?${q}&level=ad`))) as { data: Array<Record<string, string>> };
    assert.deepEqual(first, again);
    const row = first.data[0];
    assert.equal(row?.ad_id, ids.ad);
    assert.equal(row?.campaign_name, 'Boost: Sourdough');
    assert.ok(Number(row?.impressions) > 0);
    assert.ok(Number(row?.spend) > 0 && Number(row?.spend) <= 3 * 20);
    assert.match(row?.date_start ?? '', /^\d{4}-\d{2}-\d{2}$/);
    const daily = (await json(await get(`/${ids.campaign}/insights?fields=impressions&date_preset=last_7d&time_increment=1`))) as { data: Array<{ impressions: string; date_start: string }> };
    assert.ok(daily.data.length >= 2 && daily.data.length <= 4);
    assert.equal(daily.data.reduce((n, r) => n + Number(r.impressions), 0), Number(row?.impressions));
    const split = (await json(await get(`/${ids.adset}/insights?fields=impressions&date_preset=last_7d&breakdowns=age,gender`))) as { data: Array<{ impressions: string; age: string; gender: string }> };
    assert.equal(split.data.reduce((n, r) => n + Number(r.impressions), 0), Number(row?.impressions));
    assert.ok(split.data.every((r) => r.age && r.gender));
    assert.equal((await graphErrorOf(await get(`/${account}/insights?breakdowns=age,device_platform`))).code, 100);
    assert.equal((await graphErrorOf(await get(`/${account}/insights?date_preset=last_century`))).code, 100);
    const spent = await json(await get(`/${account}?fields=amount_spent`));
    assert.ok(Number(spent.amount_spent) > 0);
  });

  test('custom audiences: hashed data accepted, unhashed refused, counts, delete', async () => {
    assert.equal((await graphErrorOf(await post(`/${account}/customaudiences`, { name: 'Buyers', subtype: 'CUSTOM' }))).code, 100);
    const id = String((await json(await post(`/${account}/customaudiences`, { name: 'Buyers', subtype: 'CUSTOM', customer_file_source: 'USER_PROVIDED_ONLY' }))).id);
    const plain = await graphErrorOf(await post(`/${id}/users`, { payload: { schema: 'EMAIL_SHA256', data: ['dana@example.com', 'lee@example.com'] } }));
    assert.equal(plain.code, 100);
    const emails = Array.from({ length: 1200 }, (_, i) => sha(`user${i}@example.com`));
    const added = await json(await post(`/${id}/users`, { payload: { schema: 'EMAIL_SHA256', data: [...emails, 'Not@Hashed.com'] } }));
    assert.deepEqual([added.audience_id, added.num_received, added.num_invalid_entries], [id, 1201, 1]);
    const phones = await json(await post(`/${id}/users`, { payload: { schema: ['PHONE_SHA256'], data: [[sha('16505551234')]] } }));
    assert.equal(phones.num_invalid_entries, 0);
    const info = await json(await get(`/${id}?fields=name,approximate_count_lower_bound,approximate_count_upper_bound,delivery_status`));
    assert.ok(Number(info.approximate_count_lower_bound) >= 1000);
    const removed = await fetch(`${graph}/${id}/users`, { method: 'DELETE', body: new URLSearchParams({ access_token: token, payload: JSON.stringify({ schema: 'EMAIL_SHA256', data: emails.slice(0, 300) }) }) });
    assert.equal(((await removed.json()) as { num_received: number }).num_received, 300);
    assert.equal((await json(await get(`/${id}?fields=approximate_count_lower_bound`))).approximate_count_lower_bound, -1);
    assert.deepEqual(await json(await fetch(`${graph}/${id}?access_token=${token}`, { method: 'DELETE' })), { success: true });
    assert.equal((await graphErrorOf(await get(`/${id}`))).error_subcode, 33);
  });

  test('targeting search: interests and geolocations', async () => {
    const interests = (await json(await get('/search?type=adinterest&q=bak'))) as { data: Array<{ id: string; name: string; audience_size_lower_bound: number; path: string[] }> };
    assert.equal(interests.data[0]?.name, 'Baking');
    assert.ok(interests.data[0]?.path.includes('Food and drink'));
    const geo = (await json(await get('/search?type=adgeolocation&q=dub&location_types=["city"]'))) as { data: Array<{ key: string; type: string; country_code: string }> };
    assert.deepEqual(geo.data.map((g) => [g.key, g.type, g.country_code]), [['2418956', 'city', 'IE']]);
  });

  test('permissions and throttling: ads_read cannot write; 80004/2446079 at 100 % usage; expired token 190', async () => {
    const readOnly = await login(['ads_read']);
    assert.equal((await graphErrorOf(await post(`/${account}/campaigns`, { name: 'C', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [] }, readOnly))).code, 200);
    const none = await login(['pages_show_list']);
    assert.equal((await graphErrorOf(await get('/me/adaccounts', none))).code, 200);
    await fetch(`${sb.url}/_sandbox/settings`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ads: { callsPerWindow: 3 } }) });
    let throttled: Response | undefined;
    for (let i = 0; i < 5 && !throttled; i++) {
      const res = await get(`/${account}/campaigns`);
      if (res.status !== 200) throttled = res;
    }
    assert.ok(throttled);
    const usage = JSON.parse(throttled.headers.get('x-ad-account-usage') ?? '{}') as { acc_id_util_pct: number };
    assert.equal(usage.acc_id_util_pct, 100);
    const error = await graphErrorOf(throttled);
    assert.deepEqual([error.code, error.error_subcode], [80004, 2446079]);
    await advance(301_000);
    assert.equal((await get(`/${account}/campaigns`)).status, 200);
    await fetch(`${sb.url}/_sandbox/tokens/expire`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    const expired = await graphErrorOf(await get(`/${account}`));
    assert.deepEqual([expired.code, expired.error_subcode], [190, 463]);
  });
});
