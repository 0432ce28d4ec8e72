// WhatsApp templates and media against the sandbox (platforms.md §7.2, §7.5, §7.6, §7.7):
// template review on the sandbox clock with its status webhook, list filters and paging,
// template sends with parameter errors, marketing limits, deletion, two WABAs under one token;
// media upload (multipart, real bytes), its node, the authenticated download, link media
// fetched for real, deletion.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { addWhatsAppBusiness } from '../../src/sandbox/whatsapp/seed.ts';
import { fileServer, graphErrorOf, json, samples, type FileServer } from './helpers.ts';
import { whatsappRig, type WhatsAppRig } from './whatsapp-setup.ts';

const waCode = async (res: Response) => ((await res.json()) as { error: { code: number } }).error.code;

describe('WhatsApp templates and media', () => {
  let rig: WhatsAppRig;
  let files: FileServer;
  let token: string;
  let wabaId: string;
  let phoneId: string;
  const person = '16505550001';
  const send = (body: Record<string, unknown>) => rig.call(`/${phoneId}/messages`, token, { json: { messaging_product: 'whatsapp', to: person, ...body } });
  const statusesOf = (id: string) => rig.hooks.flatMap((h) => (h.value.statuses as Array<{ id: string; status: string; errors?: Array<{ code: number }> }> | undefined) ?? []).filter((s) => s.id === id);

  before(async () => {
    rig = await whatsappRig();
    files = await fileServer({ '/photo.jpg': { body: samples.jpeg }, '/page.html': { body: samples.html } });
    token = await rig.login();
    const state = rig.sb.state;
    const waba = state.whatsapp.wabasOf([...state.people.facebookUsers.keys()][0] ?? '')[0];
    wabaId = waba?.id ?? '';
    phoneId = waba?.phoneNumberIds[0] ?? '';
    await rig.call(`/${phoneId}/register`, token, { json: { messaging_product: 'whatsapp', pin: '111111' } });
    await rig.call(`/${wabaId}/subscribed_apps`, token, { method: 'POST' });
  });
  after(async () => {
    await rig.close();
    await files.close();
  });

  const orderUpdate = {
    name: 'order_update',
    language: 'en_US',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' , example: { header_text: ['#42'] } },
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Dana', '#42']] } },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}', example: ['https://shop.example/track/42'] }] },
    ],
  };

  test('create → PENDING, approved after the review delay with a message_template_status_update webhook', async () => {
    const created = await json(await rig.call(`/${wabaId}/message_templates`, token, { json: orderUpdate }));
    assert.deepEqual([created.status, created.category], ['PENDING', 'UTILITY']);
    assert.equal((await graphErrorOf(await rig.call(`/${wabaId}/message_templates`, token, { json: orderUpdate }))).error_subcode, 2388024);
    const badName = await graphErrorOf(await rig.call(`/${wabaId}/message_templates`, token, { json: { ...orderUpdate, name: 'Order Update' } }));
    assert.equal(badName.code, 100);
    const noExample = { ...orderUpdate, name: 'no_example', components: [{ type: 'BODY', text: 'Hi {{1}}' }] };
    assert.equal((await graphErrorOf(await rig.call(`/${wabaId}/message_templates`, token, { json: noExample }))).code, 100);

    assert.equal(await waCode(await send({ type: 'template', template: { name: 'order_update', language: { code: 'en_US' } } })), 132001);
    await rig.settle(2000);
    const hook = rig.hooks.find((h) => h.field === 'message_template_status_update');
    assert.deepEqual([hook?.value.event, hook?.value.message_template_id, hook?.value.message_template_name], ['APPROVED', Number(created.id), 'order_update']);
    const got = await json(await rig.call(`/${String(created.id)}?fields=name,status,category,language`, token));
    assert.deepEqual([got.status, got.language], ['APPROVED', 'en_US']);
  });

  test('list filters and paging; a rejected review', async () => {
    for (const name of ['promo_one', 'promo_two']) {
      const body = { name, language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale on now' }] };
      assert.equal((await rig.call(`/${wabaId}/message_templates`, token, { json: body })).status, 200);
    }
    const pending = (await json(await rig.call(`/${wabaId}/message_templates?status=PENDING&fields=name,status`, token))) as { data: Array<{ name: string }> };
    assert.deepEqual(pending.data.map((t) => t.name), ['promo_one', 'promo_two']);
    const two = [...rig.sb.state.whatsapp.templates.values()].find((t) => t.name === 'promo_two');
    await rig.control('/whatsapp/templates/review', { templateId: two?.id, status: 'REJECTED', reason: 'PROMOTIONAL' });
    await rig.settle(2000);
    const page1 = (await json(await rig.call(`/${wabaId}/message_templates?limit=2&category=MARKETING`, token))) as { data: Array<{ name: string; status: string }>; paging: { next?: string } };
    assert.deepEqual(page1.data.map((t) => [t.name, t.status]), [['promo_one', 'APPROVED'], ['promo_two', 'REJECTED']]);
    const byName = (await json(await rig.call(`/${wabaId}/message_templates?name=order`, token))) as { data: Array<{ name: string }> };
    assert.deepEqual(byName.data.map((t) => t.name), ['order_update']);
    assert.ok(rig.hooks.some((h) => h.field === 'message_template_status_update' && h.value.event === 'REJECTED' && h.value.reason === 'PROMOTIONAL'));
  });

  test('template sends: parameter count 132000, format 132012, success outside the window; marketing cap 131049', async () => {
    const base = { name: 'order_update', language: { code: 'en_US' } };
    const header = { type: 'header', parameters: [{ type: 'text', text: '#42' }] };
    const button = { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: '42' }] };
    const oneParam = { ...base, components: [header, { type: 'body', parameters: [{ type: 'text', text: 'Dana' }] }, button] };
    assert.equal(await waCode(await send({ type: 'template', template: oneParam })), 132000);
    const imageParam = { ...base, components: [header, { type: 'body', parameters: [{ type: 'image', image: { link: 'https://x' } }, { type: 'text', text: '#42' }] }, button] };
    assert.equal(await waCode(await send({ type: 'template', template: imageParam })), 132012);
    const good = { ...base, components: [header, { type: 'body', parameters: [{ type: 'text', text: 'Dana' }, { type: 'text', text: '#42' }] }, button] };
    const sent = (await json(await send({ type: 'template', template: good }))) as { messages: Array<{ id: string; message_status: string }> };
    assert.equal(sent.messages[0]?.message_status, 'accepted');
    await rig.settle(1000);
    assert.deepEqual(statusesOf(sent.messages[0]?.id ?? '').map((s) => s.status), ['sent', 'delivered']);

    await rig.control('/settings', { whatsapp: { marketingPerUserPerDay: 1 } }, 'PATCH');
    const promo = { type: 'template', template: { name: 'promo_one', language: { code: 'en_US' } } };
    const first = (await json(await send(promo))) as { messages: Array<{ id: string }> };
    await rig.settle(1000);
    const second = (await json(await send(promo))) as { messages: Array<{ id: string }> };
    await rig.settle(1000);
    assert.equal(statusesOf(first.messages[0]?.id ?? '').at(-1)?.status, 'delivered');
    assert.deepEqual(statusesOf(second.messages[0]?.id ?? '').map((s) => [s.status, s.errors?.[0]?.code]), [['failed', 131049]]);
    await rig.control('/whatsapp/people', { waId: person, marketingOptOut: true });
    const optedOut = (await json(await send(promo))) as { messages: Array<{ id: string }> };
    await rig.settle();
    assert.equal(statusesOf(optedOut.messages[0]?.id ?? '')[0]?.errors?.[0]?.code, 131050);
  });

  test('media: multipart upload of real bytes, GET url/sha256/size, authenticated download, delete', async () => {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', 'image/png');
    form.append('file', new Blob([samples.png], { type: 'image/png' }), 'pic.png');
    const uploaded = await json(await rig.call(`/${phoneId}/media`, token, { form }));
    const mediaId = String(uploaded.id);
    const info = await json(await rig.call(`/${mediaId}`, token));
    assert.equal(info.mime_type, 'image/png');
    assert.equal(info.sha256, createHash('sha256').update(samples.png).digest('hex'));
    assert.equal(info.file_size, String(samples.png.length));
    const url = String(info.url);
    assert.equal((await fetch(url)).status, 401);
    const download = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), samples.png);

    const liar = new FormData();
    liar.append('messaging_product', 'whatsapp');
    liar.append('type', 'image/jpeg');
    liar.append('file', new Blob([samples.html], { type: 'image/jpeg' }), 'x.jpg');
    assert.equal(await waCode(await rig.call(`/${phoneId}/media`, token, { form: liar })), 131053);

    await rig.control('/whatsapp/messages', { phoneNumberId: phoneId, from: person, text: 'send me a photo' });
    const byId = (await json(await send({ type: 'image', image: { id: mediaId, caption: 'here' } }))) as { messages: Array<{ id: string }> };
    const byLink = (await json(await send({ type: 'image', image: { link: `${files.url}/photo.jpg` } }))) as { messages: Array<{ id: string }> };
    const badLink = (await json(await send({ type: 'image', image: { link: `${files.url}/page.html` } }))) as { messages: Array<{ id: string }> };
    await rig.settle();
    await rig.settle(1000);
    assert.equal(statusesOf(byId.messages[0]?.id ?? '').at(-1)?.status, 'delivered');
    assert.equal(statusesOf(byLink.messages[0]?.id ?? '').at(-1)?.status, 'delivered');
    assert.equal(files.hits.get('/photo.jpg'), 1);
    assert.equal(statusesOf(badLink.messages[0]?.id ?? '')[0]?.errors?.[0]?.code, 131053);

    assert.deepEqual(await json(await rig.call(`/${mediaId}`, token, { method: 'DELETE' })), { success: true });
    assert.equal((await graphErrorOf(await rig.call(`/${mediaId}`, token))).error_subcode, 33);
    assert.equal((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status, 404);
  });

  test('a person sends a photo: the webhook names a media id whose bytes download', async () => {
    await rig.control('/whatsapp/messages', { phoneNumberId: phoneId, from: person, type: 'image', media: { data: samples.jpeg.toString('base64'), mimeType: 'image/jpeg', caption: 'look' } });
    await rig.settle();
    const hook = rig.hooks.filter((h) => Array.isArray(h.value.messages)).at(-1);
    const image = (hook?.value.messages as Array<{ image: { id: string; sha256: string; caption: string } }>)[0]?.image;
    assert.equal(image?.caption, 'look');
    const info = await json(await rig.call(`/${image?.id ?? ''}`, token));
    const bytes = Buffer.from(await (await fetch(String(info.url), { headers: { authorization: `Bearer ${token}` } })).arrayBuffer());
    assert.deepEqual(bytes, samples.jpeg);
  });

  test('delete a template by name; sending it afterwards is 132001', async () => {
    assert.deepEqual(await json(await rig.call(`/${wabaId}/message_templates?name=order_update`, token, { method: 'DELETE' })), { success: true });
    assert.equal(await waCode(await send({ type: 'template', template: { name: 'order_update', language: { code: 'en_US' } } })), 132001);
    assert.equal((await graphErrorOf(await rig.call(`/${wabaId}/message_templates?name=order_update`, token, { method: 'DELETE' }))).code, 100);
  });

  test("two WABAs under one token: each lists only its own templates, the template node reads either, a delete finds only its WABA's", async () => {
    const owner = rig.sb.state.whatsapp.wabas.get(wabaId)?.ownerUserId;
    const second = addWhatsAppBusiness(rig.sb.state, { ownerUserId: owner, name: 'Second business' }).waba.id;
    const make = async (waba: string) => (await json(await rig.call(`/${waba}/message_templates`, token, { json: { name: 'two_wabas', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi' }] } }))).id as string;
    const first = await make(wabaId);
    const other = await make(second);
    const listed = async (waba: string) => ((await json(await rig.call(`/${waba}/message_templates?name=two_wabas&fields=id`, token))).data as Array<{ id: string }>).map((x) => x.id);
    assert.deepEqual(await listed(wabaId), [first]);
    assert.deepEqual(await listed(second), [other]);
    // The node answers for the token's every WABA: only the list says whose a template is.
    assert.equal((await json(await rig.call(`/${other}?fields=id,name`, token))).id, other);
    assert.equal((await graphErrorOf(await rig.call(`/${wabaId}/message_templates?name=two_wabas&hsm_id=${other}`, token, { method: 'DELETE' }))).code, 100);
    assert.equal(rig.sb.state.whatsapp.templates.get(other)?.status, 'PENDING');
  });
});
