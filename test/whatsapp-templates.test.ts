// Message templates over HTTP against the in-process sandbox, on both stores: create (201,
// PENDING, the request the sandbox received), the Cloud API's rejections as 400 template_error
// naming what is wrong, bad input as a 400 naming the field before any call, list with the
// filters and paging through an opaque cursor, get, delete of one language or of every
// language of a name, the error table's codes, another organization's account (404), a
// template of another business account under the same token (404, nothing deleted) and a
// non-WhatsApp account (400 not_supported).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addWhatsAppBusiness } from '../src/sandbox/whatsapp/seed.ts';
import { addRedditAccount, api, callsSince, codeOf, connectNumber, control, firstWaba, mark, startWhatsAppApp, whatsappUserToken, type WhatsAppApp } from './whatsapp-support.ts';

interface Template {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: Array<Record<string, unknown>>;
  parameterFormat: string | null;
  qualityScore: string | null;
  rejectedReason: string | null;
  previousCategory: string | null;
}

const body = (text: string) => [{ type: 'BODY', text }];

for (const dialect of DIALECTS) {
  describe(`whatsapp templates [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: WhatsAppApp;
    let key: string;
    let org: string;
    let otherKey: string;
    let accountId: string;
    let path: string;

    before(async () => {
      t = await startWhatsAppApp(dialect);
      ({ key, organizationId: org } = await t.tenant());
      ({ key: otherKey } = await t.tenant());
      accountId = await connectNumber(t, key);
      path = `/whatsapp/accounts/${accountId}/templates`;
    });
    after(() => t.close());

    const create = (template: Record<string, unknown>, k = key) => api(t, k, 'POST', path, template);
    const created = async (template: Record<string, unknown>): Promise<Template> => {
      const res = await create(template);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.template as Template;
    };
    const review = (templateId: string, status: string) => control(t, 'whatsapp/templates/review', { templateId, status });

    test('create: 201 submitted for review, the request as the Cloud API takes it', async () => {
      const components = [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#42'] } },
        { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Dana', '#42']] } },
        { type: 'FOOTER', text: 'Sandbox Bakery' },
      ];
      const seq = mark(t);
      const template = await created({ name: 'order_update', language: 'en_US', category: 'UTILITY', components });
      assert.equal(template.status, 'PENDING');
      assert.deepEqual([template.name, template.language, template.category, template.components], ['order_update', 'en_US', 'UTILITY', components]);
      const calls = callsSince(t, seq);
      assert.deepEqual(calls.map((c) => [c.method, c.path]), [['POST', `/v24.0/${firstWaba(t).id}/message_templates`]]);
      assert.deepEqual(calls[0]?.body, { name: 'order_update', language: 'en_US', category: 'UTILITY', components });
      const stored = t.sandbox.whatsapp.templates.get(template.id);
      assert.deepEqual([stored?.name, stored?.status, stored?.wabaId], ['order_update', 'PENDING', firstWaba(t).id]);
    });

    test("the Cloud API's rejections are 400 template_error saying what is wrong", async () => {
      const duplicate = await create({ name: 'order_update', language: 'en_US', category: 'UTILITY', components: body('Again') });
      assert.deepEqual(codeOf(duplicate), [400, 'template_error']);
      assert.match(duplicate.body.error?.message ?? '', /already exists/);
      const noExample = await create({ name: 'no_example', language: 'en_US', category: 'MARKETING', components: body('Hi {{1}}') });
      assert.deepEqual(codeOf(noExample), [400, 'template_error']);
      assert.match(noExample.body.error?.message ?? '', /example/);
      const gap = await create({ name: 'gap', language: 'en_US', category: 'MARKETING', components: body('Hi {{2}}') });
      assert.deepEqual(codeOf(gap), [400, 'template_error']);
      assert.match(gap.body.error?.message ?? '', /sequential/);
    });

    test('bad input is a 400 naming the field, before any platform call', async () => {
      const seq = mark(t);
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ name: 'Order Update', language: 'en_US', category: 'UTILITY', components: body('x') }, /^name:/],
        [{ language: 'en_US', category: 'UTILITY', components: body('x') }, /^name: required/],
        [{ name: 'ok', language: 'english', category: 'UTILITY', components: body('x') }, /^language:/],
        [{ name: 'ok', language: 'en_US', category: 'PROMO', components: body('x') }, /^category: must be one of MARKETING, UTILITY, AUTHENTICATION/],
        [{ name: 'ok', language: 'en_US', category: 'UTILITY', components: [] }, /^components:/],
        [{ name: 'ok', language: 'en_US', category: 'UTILITY', components: [{ type: 'TITLE' }] }, /^components\[0\]\.type:/],
        [{ name: 'ok', language: 'en_US', category: 'UTILITY' }, /^components: required/],
      ];
      for (const [input, message] of cases) {
        const res = await create(input);
        assert.equal(res.status, 400, JSON.stringify(input));
        assert.match(res.body.error?.message ?? '', message);
      }
      assert.match((await api(t, key, 'GET', `${path}?limit=0`)).body.error?.message ?? '', /^query\.limit/);
      assert.match((await api(t, key, 'GET', `${path}?after=nonsense`)).body.error?.message ?? '', /^after: not a cursor/);
      // An id that is not a platform id is unknown, and never sent to WhatsApp.
      assert.deepEqual(codeOf(await api(t, key, 'GET', `${path}/..%2Fme`)), [404, null]);
      assert.deepEqual(codeOf(await api(t, key, 'DELETE', `${path}/not-an-id`)), [404, null]);
      assert.equal(callsSince(t, seq).length, 0);
    });

    test('list: filters as the Cloud API takes them, paging through an opaque cursor', async () => {
      const promos: Template[] = [];
      for (const name of ['promo_one', 'promo_two', 'promo_three']) promos.push(await created({ name, language: 'en_US', category: 'MARKETING', components: body('Sale on now') }));
      await review(promos[0]?.id ?? '', 'APPROVED');
      await review(promos[1]?.id ?? '', 'REJECTED');

      const seq = mark(t);
      const first = await api(t, key, 'GET', `${path}?category=MARKETING&limit=2`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const page1 = first.body.templates as Template[];
      assert.deepEqual(page1.map((p) => [p.name, p.status]), [['promo_one', 'APPROVED'], ['promo_two', 'REJECTED']]);
      const cursor = first.body.after as string;
      assert.match(cursor, /^c1\./);
      const call = callsSince(t, seq)[0];
      assert.equal(call?.path, `/v24.0/${firstWaba(t).id}/message_templates`);
      assert.deepEqual([call?.query.category, call?.query.limit], ['MARKETING', '2']);
      const second = await api(t, key, 'GET', `${path}?category=MARKETING&limit=2&after=${encodeURIComponent(cursor)}`);
      assert.deepEqual((second.body.templates as Template[]).map((p) => p.name), ['promo_three']);
      assert.equal(second.body.after, null);
      // The platform's own cursor went out, not ours.
      assert.ok(!String(callsSince(t, seq)[1]?.query.after).startsWith('c1.'));

      const approved = await api(t, key, 'GET', `${path}?status=APPROVED`);
      assert.deepEqual((approved.body.templates as Template[]).map((p) => p.name), ['promo_one']);
      const byName = await api(t, key, 'GET', `${path}?name=order`);
      assert.deepEqual((byName.body.templates as Template[]).map((p) => p.name), ['order_update']);
      const byLanguage = await api(t, key, 'GET', `${path}?language=de_DE`);
      assert.deepEqual(byLanguage.body, { templates: [], after: null });
    });

    test('get: one template with its review outcome; an unknown one is 404', async () => {
      const template = await created({ name: 'welcome', language: 'en_US', category: 'UTILITY', components: body('Welcome!') });
      await review(template.id, 'REJECTED');
      const res = await api(t, key, 'GET', `${path}/${template.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const got = res.body.template as Template;
      assert.deepEqual([got.id, got.name, got.status, got.rejectedReason, got.qualityScore], [template.id, 'welcome', 'REJECTED', 'INVALID_FORMAT', 'UNKNOWN']);
      assert.deepEqual(codeOf(await api(t, key, 'GET', `${path}/5999999999999999`)), [404, null]);
    });

    test('delete: one language by id, or every language of the name; a wrong name 400, unknown 404', async () => {
      const english = await created({ name: 'pickup', language: 'en_US', category: 'UTILITY', components: body('Ready for pickup') });
      const spanish = await created({ name: 'pickup', language: 'es_ES', category: 'UTILITY', components: body('Listo para recoger') });
      const german = await created({ name: 'pickup', language: 'de_DE', category: 'UTILITY', components: body('Abholbereit') });

      const seq = mark(t);
      const one = await api(t, key, 'DELETE', `${path}/${english.id}`);
      assert.equal(one.status, 200, JSON.stringify(one.body));
      const deletion = callsSince(t, seq).find((c) => c.method === 'DELETE');
      assert.deepEqual([deletion?.path, deletion?.query.name, deletion?.query.hsm_id], [`/v24.0/${firstWaba(t).id}/message_templates`, 'pickup', english.id]);
      const left = () => [...t.sandbox.whatsapp.templates.values()].filter((x) => x.name === 'pickup' && x.status !== 'DELETED').map((x) => x.language);
      assert.deepEqual(left(), ['es_ES', 'de_DE']);
      assert.deepEqual(codeOf(await api(t, key, 'GET', `${path}/${english.id}`)), [404, null]);

      const wrongName = await api(t, key, 'DELETE', `${path}/${spanish.id}?name=other`);
      assert.equal(wrongName.status, 400);
      assert.match(wrongName.body.error?.message ?? '', /^name:/);
      assert.deepEqual(left(), ['es_ES', 'de_DE']);

      const all = await api(t, key, 'DELETE', `${path}/${spanish.id}?name=pickup&allLanguages=true`);
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.deepEqual(left(), []);
      const last = callsSince(t, seq).filter((c) => c.method === 'DELETE').at(-1);
      assert.deepEqual([last?.query.name, last?.query.hsm_id], ['pickup', undefined]);
      assert.deepEqual(codeOf(await api(t, key, 'DELETE', `${path}/${german.id}`)), [404, null]);
    });

    test('the error table: template codes, rate limits, restriction, permission', async () => {
      const waba = firstWaba(t).id;
      const listPath = `/${waba}/message_templates`;
      const cases: Array<[number, number, string]> = [
        [132001, 400, 'template_error'],
        [132015, 400, 'template_error'],
        [80007, 429, 'rate_limited'],
        [130429, 429, 'rate_limited'],
        [368, 403, 'account_restricted'],
        [200, 403, 'missing_permission'],
        [100, 400, 'template_error'],
        [131000, 502, 'platform_error'],
      ];
      for (const [code, status, answer] of cases) {
        await control(t, 'whatsapp/faults', { code, path: listPath, method: 'GET' });
        const res = await api(t, key, 'GET', path);
        assert.deepEqual(codeOf(res), [status, answer], `code ${code}`);
        assert.match(res.body.error?.message ?? '', /^whatsapp: /);
      }
    });

    test('a template of another business account under the same token is 404 for get and delete, and nothing is deleted', async () => {
      // The same person owns a second WABA: the one token reaches both, and the organization connects its number too.
      const { waba: second, phoneNumbers } = addWhatsAppBusiness(t.sandbox, { ownerUserId: firstWaba(t).ownerUserId, name: 'Sandbox Bakery Two' });
      const connected = await api(t, key, 'POST', '/whatsapp/connect', { accessToken: await whatsappUserToken(t), wabaId: second.id, phoneNumberId: phoneNumbers[0]?.id });
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
      const secondPath = `/whatsapp/accounts/${(connected.body.account as { id: string }).id}/templates`;
      const secondCreated = async (name: string): Promise<Template> => {
        const res = await api(t, key, 'POST', secondPath, { name, language: 'en_US', category: 'UTILITY', components: body('From the second') });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.template as Template;
      };
      const theirs = await secondCreated('second_only');
      // A name both WABAs have: deleting every language of it must not reach the first WABA's.
      const ours = await created({ name: 'shared_name', language: 'en_US', category: 'UTILITY', components: body('From the first') });
      const theirsShared = await secondCreated('shared_name');
      assert.equal((await api(t, key, 'GET', `${secondPath}/${theirs.id}`)).status, 200, 'its own account reads it');

      const seq = mark(t);
      for (const id of [theirs.id, theirsShared.id]) {
        assert.deepEqual(codeOf(await api(t, key, 'GET', `${path}/${id}`)), [404, null], `GET ${id}`);
        assert.deepEqual(codeOf(await api(t, key, 'DELETE', `${path}/${id}`)), [404, null], `DELETE ${id}`);
        assert.deepEqual(codeOf(await api(t, key, 'DELETE', `${path}/${id}?allLanguages=true`)), [404, null], `DELETE ${id} allLanguages`);
      }
      assert.deepEqual(callsSince(t, seq).filter((c) => c.method === 'DELETE'), [], 'no delete reached the platform');
      const statuses = [theirs, theirsShared, ours].map((x) => t.sandbox.whatsapp.templates.get(x.id)?.status);
      assert.ok(statuses.every((status) => status !== 'DELETED'), String(statuses));
      // Each account still reads and deletes its own.
      assert.equal((await api(t, key, 'GET', `${path}/${ours.id}`)).status, 200);
      assert.equal((await api(t, key, 'DELETE', `${secondPath}/${theirsShared.id}?allLanguages=true`)).status, 200);
      assert.deepEqual([t.sandbox.whatsapp.templates.get(theirsShared.id)?.status, t.sandbox.whatsapp.templates.get(ours.id)?.status], ['DELETED', 'PENDING']);
    });

    test("another organization's account is 404, a reddit account 400 not_supported, neither calls the platform", async () => {
      const reddit = await addRedditAccount(t, org);
      const template = [...t.sandbox.whatsapp.templates.values()][0]?.id ?? '1';
      const seq = mark(t);
      const calls: Array<[string, string, unknown]> = [
        ['GET', '/templates', undefined],
        ['POST', '/templates', { name: 'x', language: 'en_US', category: 'UTILITY', components: body('x') }],
        ['GET', `/templates/${template}`, undefined],
        ['DELETE', `/templates/${template}`, undefined],
      ];
      for (const [method, suffix, input] of calls) {
        assert.deepEqual(codeOf(await api(t, otherKey, method, `/whatsapp/accounts/${accountId}${suffix}`, input)), [404, null], `${method} ${suffix}`);
        assert.deepEqual(codeOf(await api(t, key, method, `/whatsapp/accounts/${reddit}${suffix}`, input)), [400, 'not_supported'], `${method} ${suffix}`);
      }
      assert.equal(callsSince(t, seq).length, 0);
      assert.ok(t.sandbox.whatsapp.templates.get(template));
    });
  });
}
