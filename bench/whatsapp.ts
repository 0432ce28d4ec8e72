// WhatsApp benchmark (issue 16, point 6). Two figures, on SQLite:
//
// - template sends: POST /whatsapp/accounts/{id}/messages (type template, an approved template,
//   each to a distinct recipient) from N concurrent clients in a closed loop for 10 s against
//   the sandbox's Cloud API; sends per second and the answer's p50/p99 (target: 500/s on 2 cores);
// - statuses: signed `statuses[]` webhooks (one `delivered` or `read` of one message sent in the
//   first part each) posted open-loop at 500/s for 10 s to /api/v1/platform-webhooks/meta; the
//   latency from each POST's due time to its message.status reaching a receiver in this process
//   (target: p99 under 200 ms), with the statuses lost or emitted twice.
//
// The sandbox needs its own tokens (the number is connected through its Embedded Signup dialog),
// so, as the send part of bench/messages.ts, the service (API and worker) runs in this process
// through the test harness: the load generator shares its event loop, so the figures are a floor.
// The sandbox adds no latency (no faults set; it has no delay setting); its `sent` status goes out
// at once as on Meta, its own `delivered` and `read` are put off past the run, so the statuses
// of the second part are the only ones.
//
//   node bench/whatsapp.ts [--clients 32] [--seconds 10] [--rate 500] [--status-seconds 10]
//
// Prints the figures against the targets (met / not met); asserts nothing.
import { createHmac } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { SANDBOX_APPS } from '../src/platforms/context.ts';
import { openLoop, percentile, sleep, sortedOf, startReceiver, tallyHeard } from './messages.ts';

export const TARGETS = { sendsPerSecond: 500, statusRate: 500, statusP99Ms: 200 };

export interface WhatsAppBenchOptions {
  clients: number;
  seconds: number;
  rate: number;
  statusSeconds: number;
}

export const DEFAULT_OPTIONS: WhatsAppBenchOptions = { clients: 32, seconds: 10, rate: 500, statusSeconds: 10 };

export interface WhatsAppResult {
  sends: { count: number; failed: number; seconds: number; perSecond: number; p50: number; p99: number };
  statuses: { sent: number; accepted: number; heard: number; lost: number; twice: number; p50: number; p99: number; max: number };
  faults: number;
  /** Jobs still due when the status part began (the drain waits up to 30 s). */
  backlog: number;
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const TEMPLATE = { name: 'bench_order_ready', language: 'en_US' };

export async function benchWhatsApp(options: WhatsAppBenchOptions = DEFAULT_OPTIONS): Promise<WhatsAppResult> {
  // The test harness's helpers: the service in sandbox mode, a number connected through the sandbox's dialog.
  const { startConnectApp } = await import('../test/harness/connect.ts');
  const { api, connectNumber, control } = await import('../test/whatsapp-support.ts');
  const t = await startConnectApp('sqlite', { worker: true });
  const receiver = await startReceiver((data) => (data.status === 'sent' ? undefined : `${String(data.platformMessageId)}:${String(data.status)}`));
  const client = new Agent({ connections: Math.max(64, options.clients), keepAliveTimeout: 30_000 });
  try {
    const meta = SANDBOX_APPS.meta;
    t.sandbox.configureApp({ platform: 'facebook', clientId: meta.clientId, clientSecret: meta.clientSecret });
    // `sent` at once; `delivered` and `read` a day later, past the run (this part posts its own).
    t.sandbox.updateSettings({ whatsapp: { sentMs: 0, deliveredMs: 86_400_000, readMs: null } });
    const faults = t.sandbox.faults.list().length;
    const { key, organizationId } = await t.tenant({ rateLimit: 1_000_000_000 });
    log(`\n[SQLite] whatsapp: connecting the sandbox's number for ${organizationId}, an approved template`);
    const accountId = await connectNumber(t, key, { subscribe: true, register: true, pin: '123456' });
    const created = await api(t, key, 'POST', `/whatsapp/accounts/${accountId}/templates`, { ...TEMPLATE, category: 'UTILITY', components: [{ type: 'BODY', text: 'Your order is ready' }] });
    if (created.status !== 201) throw new Error(`POST /templates answered ${created.status}: ${JSON.stringify(created.body)}`);
    await control(t, 'whatsapp/templates/review', { templateId: (created.body.template as { id: string }).id, status: 'APPROVED' });
    const hook = await api(t, key, 'POST', '/webhooks', { url: receiver.url, events: ['message.status'] });
    if (hook.status !== 201) throw new Error(`POST /webhooks answered ${hook.status}`);
    const phoneNumberId = String((await t.runtime.deps.store.db.selectFrom('accounts').select('platform_user_id').where('id', '=', accountId).executeTakeFirstOrThrow()).platform_user_id);

    // Part 1: closed loop, N clients, each send to a new recipient.
    const sendUrl = `${t.url}/api/v1/whatsapp/accounts/${accountId}/messages`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let next = 0;
    const wamids: string[] = [];
    const runSends = async (seconds: number, keep: boolean) => {
      const latencies: number[] = [];
      let failed = 0;
      const started = performance.now();
      const end = started + seconds * 1000;
      const worker = async () => {
        while (performance.now() < end) {
          const to = `1555${String(next++).padStart(7, '0')}`;
          const at = performance.now();
          const res = await request(sendUrl, { method: 'POST', headers, body: JSON.stringify({ to, type: 'template', template: TEMPLATE }), dispatcher: client });
          const body = (await res.body.json()) as { message?: { platformMessageId?: string } };
          latencies.push(performance.now() - at);
          if (res.statusCode !== 201 || !body.message?.platformMessageId) failed++;
          else if (keep) wamids.push(body.message.platformMessageId);
        }
      };
      await Promise.all(Array.from({ length: options.clients }, worker));
      const elapsed = (performance.now() - started) / 1000;
      const sorted = sortedOf(latencies);
      return { count: latencies.length - failed, failed, seconds: elapsed, perSecond: (latencies.length - failed) / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    log(`[SQLite] whatsapp: warm-up, 2 s of template sends from ${options.clients} clients`);
    await runSends(2, false);
    log(`[SQLite] whatsapp: template sends from ${options.clients} clients for ${options.seconds} s`);
    const sends = await runSends(options.seconds, true);
    // The sandbox's `sent` statuses of those sends and their deliveries are worked off before the
    // status part (up to 30 s), so it does not inherit their backlog.
    await t.sandbox.idle();
    const db = t.runtime.deps.store.db;
    const due = () => db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['pending', 'running']).where('run_at', '<=', Date.now()).executeTakeFirstOrThrow();
    const drainUntil = performance.now() + 30_000;
    while (Number((await due()).n) > 0 && performance.now() < drainUntil) await sleep(200);
    const backlog = Number((await due()).n);

    // Part 2: open loop, one distinct status each: every message delivered, then read.
    const statuses = [...wamids.map((id) => [id, 'delivered'] as const), ...wamids.map((id) => [id, 'read'] as const)];
    const count = Math.min(statuses.length, Math.round(options.rate * options.statusSeconds));
    log(`[SQLite] whatsapp: ${count} statuses[] webhooks at ${options.rate}/s`);
    const dueAt = new Map<string, number>();
    let sent = 0;
    const metadata = { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId };
    await openLoop(options.rate, count, async (i, at) => {
      const [id, status] = statuses[i] ?? ['', ''];
      const now = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ id: 'bench-waba', time: now, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata, statuses: [{ id, status, timestamp: String(now), recipient_id: '15550000000' }] } }] }],
      });
      const signature = `sha256=${createHmac('sha256', meta.clientSecret).update(body).digest('hex')}`;
      sent++;
      const res = await request(`${t.url}/api/v1/platform-webhooks/meta`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, dispatcher: client });
      await res.body.dump();
      if (res.statusCode === 200) dueAt.set(`${id}:${status}`, at);
    });
    const tally = await tallyHeard(receiver.heard, dueAt);
    return {
      sends,
      statuses: { sent, accepted: dueAt.size, ...tally },
      faults,
      backlog,
    };
  } finally {
    await t.close();
    await client.close();
    await receiver.close();
  }
}

const f = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(1));

export function formatWhatsAppResult(result: WhatsAppResult, options: WhatsAppBenchOptions): string[] {
  const s = result.sends;
  const st = result.statuses;
  return [
    '',
    'WhatsApp (issue 16)',
    `  [SQLite] template sends, ${options.clients} clients closed-loop for ${options.seconds} s (the service, its worker and this load in one process; sandbox faults set: ${result.faults}):`,
    `    ${Math.round(s.perSecond)} sends/s (${s.count} sent${s.failed ? `, ${s.failed} not 201` : ''}), p50 ${f(s.p50)} ms, p99 ${f(s.p99)} ms (target ≥ ${TARGETS.sendsPerSecond}/s: ${s.perSecond >= TARGETS.sendsPerSecond ? 'met' : 'NOT met'})`,
    `  [SQLite] statuses[] webhooks at ${options.rate}/s${result.backlog ? ` (${result.backlog} jobs of the sends still due at its start)` : ''}: ${st.heard}/${st.accepted} message.status heard (${st.sent} sent), ${st.lost} lost, ${st.twice} emitted twice`,
    `    webhook POST → message.status at the receiver: p50 ${f(st.p50)} ms, p99 ${f(st.p99)} ms, max ${f(st.max)} ms (target p99 < ${TARGETS.statusP99Ms} ms at ${TARGETS.statusRate}/s: ${options.rate >= TARGETS.statusRate ? (st.p99 < TARGETS.statusP99Ms ? 'met' : 'NOT met') : 'not measured at 500/s'})`,
  ];
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { clients: { type: 'string' }, seconds: { type: 'string' }, rate: { type: 'string' }, 'status-seconds': { type: 'string' } } });
  const options: WhatsAppBenchOptions = {
    clients: Number(values.clients ?? DEFAULT_OPTIONS.clients),
    seconds: Number(values.seconds ?? DEFAULT_OPTIONS.seconds),
    rate: Number(values.rate ?? DEFAULT_OPTIONS.rate),
    statusSeconds: Number(values['status-seconds'] ?? DEFAULT_OPTIONS.statusSeconds),
  };
  log(formatWhatsAppResult(await benchWhatsApp(options), options).join('\n'));
}
