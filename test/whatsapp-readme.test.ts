// "WhatsApp (sandbox)" in docs/guides/whatsapp.md, as a newcomer runs it: the sandbox's number connected through
// the embedded signup page and the consent page, then the guide's block as it is: the number
// registered and read, a template created and approved, our photo put on WhatsApp, its info and
// its bytes read back; then the conversation, with the message events added to the receiver's
// endpoint (its secret checked on every delivery). On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SandboxState } from '../src/sandbox/index.ts';
import type { TestApp } from './harness/app.ts';
import { CLIENT_REDIRECT, followCallback, startConnectApp } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { bash, readmeExamples } from './harness/readme.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { openConsent, submitConsent } from './sandbox/helpers.ts';

for (const dialect of DIALECTS) {
  describe(`guide: whatsapp [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    let whatsapp: string;
    let receiver: Receiver;
    before(async () => {
      receiver = await new Receiver().start();
      t = await startConnectApp(dialect, { worker: true, env: { LOG_LEVEL: 'silent' } });
      ({ key } = await t.tenant());
      // As the guide says: the authUrl is the signup page, whose link leads to the consent page.
      const start = (await (await t.request(`/api/v1/connect/whatsapp?redirectUrl=${encodeURIComponent(CLIENT_REDIRECT)}`, { key })).json()) as { authUrl: string };
      const page = await (await fetch(start.authUrl)).text();
      const href = /id="signup" href="([^"]+)"/.exec(page)?.[1]?.replace(/&#38;/g, '&') ?? '';
      const { location } = await followCallback(await submitConsent(await openConsent(href)));
      whatsapp = location?.searchParams.get('accountId') ?? '';
      assert.ok(whatsapp, 'whatsapp connected');
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });

    test('the block registers the number, gets a template approved and puts a photo on WhatsApp and back', async () => {
      const block = readmeExamples().get('whatsapp') ?? '';
      assert.ok(block, 'the guide marks a whatsapp block');
      const run = await bash(['set -euo pipefail', block].join('\n'), { BASE: t.url, KEY: key, WHATSAPP: whatsapp });
      assert.equal(run.code, 0, `the guide's whatsapp block failed:\n${run.stderr}\n${run.stdout}`);
      const lines = run.stdout.trim().split('\n').filter((line) => line.trim() !== '');
      assert.equal(lines.length, 5, run.stdout);
      const [registered, number, template, media] = lines.slice(0, 4).map((line) => JSON.parse(line) as Record<string, Record<string, unknown>>);
      assert.deepEqual(registered, { ok: true });
      assert.equal((number?.phoneNumber?.onboarding as { registered: boolean }).registered, true);
      assert.deepEqual([template?.template?.name, template?.template?.status], ['order_ready', 'APPROVED']);
      const size = Number(lines[4]?.trim());
      assert.equal(media?.media?.fileSize, size);
      assert.equal(media?.media?.mimeType, 'image/jpeg');
      const stored = t.sandbox.whatsapp.media.get(String(media?.media?.whatsappMediaId));
      assert.equal(stored?.bytes.length, size);
      const phone = [...t.sandbox.whatsapp.phoneNumbers.values()][0];
      assert.deepEqual([phone?.registered, phone?.pin], [true, '123456']);
    });

    test('then the conversation: a template outside the window, the person answers, text and the photo back, their statuses', async () => {
      const examples = readmeExamples();
      const block = examples.get('whatsapp_messages') ?? '';
      assert.ok(block, 'the guide marks a whatsapp_messages block');
      // What the first block left in the newcomer's shell: its helpers, WA and PIXEL.
      const first = (examples.get('whatsapp') ?? '').split('\n').filter((line) => /^(json\(\)|get\(\)|send\(\)|WA=|PIXEL=)/.test(line)).join('\n');
      // The receiver's endpoint, registered in an earlier section; the receiver checks its secret.
      const registered = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, events: ['comment.received'] }) });
      const endpoint = ((await registered.json()) as { webhook: { id: string; secret: string } }).webhook;
      receiver.secret = endpoint.secret;
      const run = await bash([first, 'set -euo pipefail', block].join('\n'), { BASE: t.url, KEY: key, WHATSAPP: whatsapp, RECEIVER: receiver.url });
      assert.equal(run.code, 0, `the guide's whatsapp_messages block failed:\n${run.stderr}\n${run.stdout}`);
      const lines = run.stdout.trim().split('\n').filter((line) => line.trim() !== '');
      const patched = (JSON.parse(lines[0] ?? '{}') as { webhook: { id: string; events: string[] } }).webhook;
      assert.equal(patched.id, endpoint.id, 'the block changes the existing endpoint');
      assert.ok(['comment.received', 'message.received', 'message.status'].every((e) => patched.events.includes(e)), patched.events.join());
      const endpoints = (await (await t.request('/api/v1/webhooks', { key })).json()) as { webhooks: unknown[] };
      assert.equal(endpoints.webhooks.length, 1, 'one endpoint for the receiver');
      const listed = JSON.parse(lines.at(-1) ?? '{}') as { conversations: Array<{ id: string; platform: string; participant: { id: string; name: string | null }; messagingWindow: { open: boolean } }> };
      assert.equal(listed.conversations.length, 1, lines.at(-1));
      const [conversation] = listed.conversations;
      assert.deepEqual([conversation?.platform, conversation?.participant.id, conversation?.messagingWindow.open], ['whatsapp', '15550002222', true]);

      type Event = { event: string; data: { text?: string | null; status?: string; platformMessageId: string } };
      const events = () => receiver.received.map((r) => JSON.parse(r.body) as Event);
      const answer = await waitFor(() => events().find((e) => e.event === 'message.received') ?? null, 15_000, 'message.received');
      assert.equal(answer.data.text, 'Lovely, see you at five');
      const history = (await (await t.request(`/api/v1/inbox/conversations/${conversation?.id ?? ''}/messages`, { key })).json()) as { messages: Array<{ direction: string; platformMessageId: string; attachments: Array<{ type: string }> }> };
      const photoId = history.messages.find((m) => m.direction === 'outbound' && m.attachments.some((a) => a.type === 'image'))?.platformMessageId;
      assert.ok(photoId, JSON.stringify(history));
      // The photo's delivered and read, from the sandbox person reading it. (A `sent` status can
      // outrun the storing of its message and then arrives after its job's retry: not waited for.)
      const statuses = () => new Set(events().filter((e) => e.event === 'message.status' && e.data.platformMessageId === photoId).map((e) => e.data.status));
      await waitFor(() => (statuses().has('delivered') && statuses().has('read') ? true : null), 15_000, `the photo's delivered and read statuses (${String(photoId)})`);
      assert.deepEqual(receiver.received.filter((r) => r.verified !== true).map((r) => r.body), [], 'every delivery verifies with the secret');
      const outbound = [...t.sandbox.journal.list({ method: 'POST' })].filter((e) => e.path.endsWith('/messages')).map((e) => (e.body as { type?: string }).type);
      assert.deepEqual(outbound.slice(-3), ['template', 'text', 'image']);
    });
  });
}
