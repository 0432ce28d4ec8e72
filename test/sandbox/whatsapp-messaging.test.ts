// WhatsApp Cloud API messaging against the sandbox (platforms.md §7.1, §7.3, §7.4, §7.6, §7.7):
// Embedded Signup token and debug_token target_ids, phone number fields, registration, the
// 24-hour window, statuses moving on the sandbox clock to a signature-checked receiver, replies,
// reactions, interactive messages, mark-as-read, test numbers and the error table.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { graphErrorOf, json } from './helpers.ts';
import { APP, SECRET, whatsappRig, type WhatsAppRig } from './whatsapp-setup.ts';

interface WaError {
  code: number;
  message: string;
  error_data?: { messaging_product: string; details: string };
}
const waError = async (res: Response) => ((await res.json()) as { error: WaError }).error;

describe('WhatsApp Cloud API messaging', () => {
  let rig: WhatsAppRig;
  let token: string;
  let wabaId: string;
  let phoneId: string;
  const person = '16505551234';

  before(async () => {
    rig = await whatsappRig();
    token = await rig.login();
  });
  after(() => rig.close());

  test('Embedded Signup: the config_id token names the WABA in debug_token granular scopes', async () => {
    const res = await fetch(`${rig.graph}/debug_token?input_token=${token}&access_token=${APP}|${SECRET}`);
    const data = ((await res.json()) as { data: { scopes: string[]; granular_scopes: Array<{ scope: string; target_ids?: string[] }> } }).data;
    assert.ok(data.scopes.includes('whatsapp_business_messaging'));
    const management = data.granular_scopes.find((g) => g.scope === 'whatsapp_business_management');
    assert.equal(management?.target_ids?.length, 1);
    wabaId = management?.target_ids?.[0] ?? '';
    const waba = await json(await rig.call(`/${wabaId}?fields=id,name,currency,message_template_namespace`, token));
    assert.equal(waba.name, 'Sandbox Bakery');
    assert.equal(waba.currency, 'USD');
  });

  test('phone numbers: list, fields, send before register is 133010, register with a PIN', async () => {
    const list = (await json(await rig.call(`/${wabaId}/phone_numbers`, token))) as { data: Array<{ id: string; display_phone_number: string; verified_name: string; quality_rating: string }> };
    assert.equal(list.data.length, 1);
    phoneId = list.data[0]?.id ?? '';
    assert.match(list.data[0]?.display_phone_number ?? '', /^\+1 555-/);
    const fields = await json(await rig.call(`/${phoneId}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier,code_verification_status,platform_type,status,account_mode`, token));
    assert.deepEqual(
      { q: fields.quality_rating, tier: fields.messaging_limit_tier, code: fields.code_verification_status, platform: fields.platform_type, mode: fields.account_mode },
      { q: 'GREEN', tier: 'TIER_1K', code: 'VERIFIED', platform: 'NOT_APPLICABLE', mode: 'LIVE' },
    );
    const early = await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, type: 'text', text: { body: 'hi' } } });
    assert.equal(early.status, 400);
    const error = await waError(early);
    assert.equal(error.code, 133010);
    assert.ok(error.error_data?.details);
    assert.equal((await waError(await rig.call(`/${phoneId}/register`, token, { json: { messaging_product: 'whatsapp', pin: '12' } }))).code, 100);
    assert.deepEqual(await json(await rig.call(`/${phoneId}/register`, token, { json: { messaging_product: 'whatsapp', pin: '123456' } })), { success: true });
    assert.equal((await waError(await rig.call(`/${phoneId}/register`, token, { json: { messaging_product: 'whatsapp', pin: '654321' } }))).code, 133005);
    const after = await json(await rig.call(`/${phoneId}?fields=platform_type,status`, token));
    assert.deepEqual([after.platform_type, after.status], ['CLOUD_API', 'CONNECTED']);
  });

  test('subscribed_apps: POST, GET, and free-form outside the window is 131047', async () => {
    assert.deepEqual(await json(await rig.call(`/${wabaId}/subscribed_apps`, token, { method: 'POST' })), { success: true });
    const subs = (await json(await rig.call(`/${wabaId}/subscribed_apps`, token))) as { data: Array<{ whatsapp_business_api_data: { id: string } }> };
    assert.equal(subs.data[0]?.whatsapp_business_api_data.id, APP);
    const res = await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: `+${person}`, type: 'text', text: { body: 'hello?' } } });
    const error = await waError(res);
    assert.equal(error.code, 131047);
    assert.equal(error.message, '(#131047) Re-engagement message');
    assert.match(error.error_data?.details ?? '', /24 hours/);
  });

  test('a person writes: signed messages webhook; replies move sent → delivered → read on the clock', async () => {
    const inbound = await rig.control('/whatsapp/messages', { phoneNumberId: phoneId, from: person, name: 'Sheena Nelson', text: 'Does it come in blue?' });
    await rig.settle();
    const hook = rig.hooks.find((h) => h.field === 'messages' && Array.isArray(h.value.messages));
    assert.equal(hook?.wabaId, wabaId);
    const value = hook?.value as { metadata: { phone_number_id: string }; contacts: Array<{ wa_id: string; profile: { name: string } }>; messages: Array<{ id: string; from: string; type: string; text: { body: string } }> };
    assert.equal(value.metadata.phone_number_id, phoneId);
    assert.deepEqual(value.contacts[0], { profile: { name: 'Sheena Nelson' }, wa_id: person });
    assert.deepEqual([value.messages[0]?.id, value.messages[0]?.type, value.messages[0]?.text.body], [inbound.id, 'text', 'Does it come in blue?']);
    assert.equal(rig.badSignatures, 0);

    const sent = (await json(
      await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: `+1 (650) 555-1234`, type: 'text', text: { body: 'Yes!' }, context: { message_id: inbound.id } } }),
    )) as { messaging_product: string; contacts: Array<{ input: string; wa_id: string }>; messages: Array<{ id: string }> };
    assert.equal(sent.messaging_product, 'whatsapp');
    assert.deepEqual(sent.contacts[0], { input: '+1 (650) 555-1234', wa_id: person });
    const wamid = sent.messages[0]?.id ?? '';
    assert.match(wamid, /^wamid\./);
    await rig.settle();
    await rig.settle(1000);
    await rig.settle(5000);
    const statuses = rig.hooks.flatMap((h) => (h.value.statuses as Array<{ id: string; status: string; recipient_id: string; pricing?: { category: string; billable: boolean } }> | undefined) ?? []).filter((s) => s.id === wamid);
    assert.deepEqual(statuses.map((s) => s.status), ['sent', 'delivered', 'read']);
    assert.equal(statuses[0]?.recipient_id, person);
    assert.deepEqual([statuses[0]?.pricing?.category, statuses[0]?.pricing?.billable], ['service', false]);
  });

  test('mark as read with typing indicator; reactions; interactive validation', async () => {
    const inbound = await rig.control('/whatsapp/messages', { phoneNumberId: phoneId, from: person, text: 'hello again' });
    const read = await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', status: 'read', message_id: inbound.id, typing_indicator: { type: 'text' } } });
    assert.deepEqual(await read.json(), { success: true });
    assert.equal((await waError(await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.nope' } }))).code, 100);
    const reaction = await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, type: 'reaction', reaction: { message_id: inbound.id, emoji: '👍' } } });
    assert.equal(reaction.status, 200);
    const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: `Option ${i}` } }));
    const interactive = (n: number) => ({ messaging_product: 'whatsapp', to: person, type: 'interactive', interactive: { type: 'button', body: { text: 'Pick one' }, action: { buttons: buttons(n) } } });
    assert.equal((await rig.call(`/${phoneId}/messages`, token, { json: interactive(3) })).status, 200);
    const tooMany = await waError(await rig.call(`/${phoneId}/messages`, token, { json: interactive(4) }));
    assert.equal(tooMany.code, 131009);
    const list = { type: 'list', body: { text: 'Menu' }, action: { button: 'See', sections: [{ title: 'A', rows: [{ id: 'r1', title: 'Row 1', description: 'first' }] }] } };
    assert.equal((await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, type: 'interactive', interactive: list } })).status, 200);
    assert.equal((await waError(await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, type: 'text', text: {} } }))).code, 131008);
    const location = { latitude: 53.34, longitude: -6.26, name: 'Shop' };
    assert.equal((await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, type: 'location', location } })).status, 200);
    const contacts = [{ name: { formatted_name: 'Dana W', first_name: 'Dana' }, phones: [{ phone: '+16505550000', type: 'WORK' }] }];
    assert.equal((await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, type: 'contacts', contacts } })).status, 200);
  });

  test('the window closes after 24 hours; a person that is not on WhatsApp gets a failed status (131026)', async () => {
    await rig.settle(24 * 3_600_000);
    assert.equal((await waError(await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, text: { body: 'late' } } }))).code, 131047);
    const ghost = '447700900123';
    await rig.control('/whatsapp/people', { waId: ghost, onWhatsApp: false });
    await rig.control('/whatsapp/messages', { phoneNumberId: phoneId, from: ghost, text: 'hi' });
    const sent = (await json(await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: ghost, text: { body: 'hi' } } }))) as { messages: Array<{ id: string }> };
    await rig.settle();
    const failed = rig.hooks.flatMap((h) => (h.value.statuses as Array<{ id: string; status: string; errors?: Array<{ code: number; error_data: { details: string } }> }> | undefined) ?? []).find((s) => s.id === sent.messages[0]?.id);
    assert.equal(failed?.status, 'failed');
    assert.equal(failed?.errors?.[0]?.code, 131026);
  });

  test('test numbers send only to allowed recipients (131030); account lock (131031); injected 130429', async () => {
    const added = await rig.control('/whatsapp/phone-numbers', { wabaId, testNumber: true, allowedRecipients: ['+1 650 555 1234'] });
    const testId = String(added.id);
    await rig.control('/whatsapp/messages', { phoneNumberId: testId, from: '15550009999', text: 'hi' });
    const notAllowed = await rig.call(`/${testId}/messages`, token, { json: { messaging_product: 'whatsapp', to: '15550009999', text: { body: 'x' } } });
    assert.equal(notAllowed.status, 400);
    assert.equal((await waError(notAllowed)).code, 131030);
    const modeRes = await json(await rig.call(`/${testId}?fields=account_mode`, token));
    assert.equal(modeRes.account_mode, 'SANDBOX');

    await rig.control('/whatsapp/faults', { code: 130429 });
    const limited = await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, text: { body: 'x' } } });
    assert.equal(limited.status, 429);
    const limitedError = await waError(limited);
    assert.equal(limitedError.code, 130429);
    assert.equal(limitedError.error_data?.messaging_product, 'whatsapp');

    await rig.control('/whatsapp/account', { wabaId, restriction: 'locked' });
    await rig.settle();
    assert.equal((await waError(await rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, text: { body: 'x' } } }))).code, 131031);
    assert.ok(rig.hooks.some((h) => h.field === 'account_update' && h.value.event === 'DISABLED_UPDATE'));
    await rig.control('/whatsapp/account', { wabaId, restriction: null });
  });

  test('tokens: no WhatsApp permission is 200, expired is 190/463, another user cannot see the WABA', async () => {
    const pagesOnly = await rig.login(['pages_show_list']);
    const denied = await rig.call(`/${phoneId}/messages`, pagesOnly, { json: { messaging_product: 'whatsapp', to: person, text: { body: 'x' } } });
    assert.equal((await graphErrorOf(denied)).code, 200);
    const other = await rig.control('/seed', { facebook: [{ name: 'Other Person' }] });
    assert.ok(other);
    await rig.control('/tokens/expire', { token });
    const expired = await graphErrorOf(await rig.call(`/${wabaId}/phone_numbers`, token));
    assert.deepEqual([expired.code, expired.error_subcode], [190, 463]);
  });
});
