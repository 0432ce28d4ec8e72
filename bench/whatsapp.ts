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
// The service (`socialapi serve`, API and worker) runs in a process of its own, as an operator's
// would; the sandbox, the load generator and the receiver share this one (bench/sandboxed-server.ts).
// The number is connected as a client would: a user token from the sandbox's Embedded Signup
// dialog, then POST /whatsapp/connect. The sandbox adds no latency (no faults set; it has no
// delay setting); its `sent` status goes out at once as on Meta, its own `delivered` and `read`
// are put off past the run, so the statuses of the second part are the only ones. The server's
// CPU per send and per status is printed: the figure least moved by other load on the machine.
//
//   node bench/whatsapp.ts [--clients 32] [--seconds 10] [--rate 500] [--status-seconds 10]
//
// Prints the figures against the targets (met / not met); asserts nothing.
import { createHmac } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { parseConfig } from '../src/config.ts';
import { sandboxApp } from '../src/platforms/registry.ts';
import { openMigratedStore } from '../src/runtime.ts';
import { consent } from '../test/sandbox/helpers.ts';
import { openLoop, percentile, sleep, sortedOf, startReceiver, tallyHeard } from './messages.ts';
import { startSandboxedServer } from './sandboxed-server.ts';

export const TARGETS = { sendsPerSecond: 500, statusRate: 500, statusP99Ms: 200 };

export interface WhatsAppBenchOptions {
  clients: number;
  seconds: number;
  rate: number;
  statusSeconds: number;
}

export const DEFAULT_OPTIONS: WhatsAppBenchOptions = { clients: 32, seconds: 10, rate: 500, statusSeconds: 10 };

export interface WhatsAppResult {
  sends: { count: number; failed: number; seconds: number; perSecond: number; p50: number; p99: number; cpuPerSend: number | null };
  statuses: { sent: number; accepted: number; heard: number; lost: number; twice: number; p50: number; p99: number; max: number; cpuPerStatus: number | null };
  faults: number;
  /** Jobs still due when the status part began (the drain waits up to 30 s). */
  backlog: number;
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const TEMPLATE = { name: 'bench_order_ready', language: 'en_US' };

/** A user token with the WhatsApp permissions, through the sandbox's dialog and code exchange, as a browser and a client's backend would. */
async function whatsappUserToken(sandboxUrl: string): Promise<string> {
  const meta = sandboxApp('meta');
  const redirect = encodeURIComponent('https://client.example/whatsapp');
  const dialog = `${sandboxUrl}/www.facebook.com/v24.0/dialog/oauth?client_id=${meta.clientId}&redirect_uri=${redirect}&config_id=bench&response_type=code&state=bench`;
  const code = (await consent(dialog)).searchParams.get('code') ?? '';
  const res = await fetch(`${sandboxUrl}/graph.facebook.com/v24.0/oauth/access_token?client_id=${meta.clientId}&client_secret=${meta.clientSecret}&redirect_uri=${redirect}&code=${code}`);
  const token = ((await res.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`the sandbox's code exchange answered ${res.status}`);
  return token;
}

/** CPU µs of the server per item between two readings; null where /proc is not available. */
const cpuPer = (before: number | null, after: number | null, items: number) => (before === null || after === null || items === 0 ? null : ((after - before) * 1e6) / items);

export async function benchWhatsApp(options: WhatsAppBenchOptions = DEFAULT_OPTIONS): Promise<WhatsAppResult> {
  const s = await startSandboxedServer('whatsapp');
  const { sandbox, server } = s;
  const receiver = await startReceiver((data) => (data.status === 'sent' ? undefined : `${String(data.platformMessageId)}:${String(data.status)}`));
  const client = new Agent({ connections: Math.max(64, options.clients), keepAliveTimeout: 30_000 });
  const store = await openMigratedStore(parseConfig(s.env));
  try {
    const meta = sandboxApp('meta');
    // `sent` at once; `delivered` and `read` a day later, past the run (this part posts its own).
    sandbox.state.updateSettings({ whatsapp: { sentMs: 0, deliveredMs: 86_400_000, readMs: null } });
    const faults = sandbox.state.faults.list().length;
    const waba = [...sandbox.state.whatsapp.wabas.values()][0];
    const phoneNumberId = waba?.phoneNumberIds[0];
    if (!waba || !phoneNumberId) throw new Error('the sandbox has no WhatsApp number');
    log(`\n[SQLite] whatsapp: connecting the sandbox's number for ${s.organizationId} (serve in its own process), an approved template`);
    const connected = await s.api('POST', '/whatsapp/connect', { accessToken: await whatsappUserToken(sandbox.url), wabaId: waba.id, phoneNumberId, subscribe: true, register: true, pin: '123456' });
    if (connected.status !== 201) throw new Error(`POST /whatsapp/connect answered ${connected.status}: ${JSON.stringify(connected.body)}`);
    const accountId = (connected.body.account as { id: string }).id;
    const created = await s.api('POST', `/whatsapp/accounts/${accountId}/templates`, { ...TEMPLATE, category: 'UTILITY', components: [{ type: 'BODY', text: 'Your order is ready' }] });
    if (created.status !== 201) throw new Error(`POST /templates answered ${created.status}: ${JSON.stringify(created.body)}`);
    const review = await fetch(`${sandbox.url}/_sandbox/whatsapp/templates/review`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ templateId: (created.body.template as { id: string }).id, status: 'APPROVED' }) });
    if (review.status !== 200) throw new Error(`the sandbox's template review answered ${review.status}`);
    const hook = await s.api('POST', '/webhooks', { url: receiver.url, events: ['message.status'] });
    if (hook.status !== 201) throw new Error(`POST /webhooks answered ${hook.status}`);

    // Part 1: closed loop, N clients, each send to a new recipient.
    const sendUrl = `${server.baseUrl}/api/v1/whatsapp/accounts/${accountId}/messages`;
    const headers = { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' };
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
      const count = latencies.length - failed;
      return { count, failed, seconds: elapsed, perSecond: count / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    log(`[SQLite] whatsapp: warm-up, 2 s of template sends from ${options.clients} clients`);
    await runSends(2, false);
    log(`[SQLite] whatsapp: template sends from ${options.clients} clients for ${options.seconds} s`);
    // The server's CPU from the first send to the end of the drain: the sends and all the work
    // they cause (their `sent` statuses processed and delivered), whenever it is done.
    const cpuBeforeSends = server.cpuSeconds();
    const sent = await runSends(options.seconds, true);
    // The sandbox's `sent` statuses of those sends and their deliveries are worked off before the
    // status part (up to 30 s), so it does not inherit their backlog.
    await sandbox.state.idle();
    const due = () => store.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['pending', 'running']).where('run_at', '<=', Date.now()).executeTakeFirstOrThrow();
    const drainUntil = performance.now() + 30_000;
    while (Number((await due()).n) > 0 && performance.now() < drainUntil) await sleep(200);
    const backlog = Number((await due()).n);
    const sends = { ...sent, cpuPerSend: cpuPer(cpuBeforeSends, server.cpuSeconds(), sent.count) };

    // Part 2: open loop, one distinct status each: every message delivered, then read.
    const statuses = [...wamids.map((id) => [id, 'delivered'] as const), ...wamids.map((id) => [id, 'read'] as const)];
    const count = Math.min(statuses.length, Math.round(options.rate * options.statusSeconds));
    log(`[SQLite] whatsapp: ${count} statuses[] webhooks at ${options.rate}/s`);
    const dueAt = new Map<string, number>();
    let posted = 0;
    const metadata = { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId };
    const cpuBefore = server.cpuSeconds();
    await openLoop(options.rate, count, async (i, at) => {
      const [id, status] = statuses[i] ?? ['', ''];
      const now = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ id: waba.id, time: now, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata, statuses: [{ id, status, timestamp: String(now), recipient_id: '15550000000' }] } }] }],
      });
      const signature = `sha256=${createHmac('sha256', meta.clientSecret).update(body).digest('hex')}`;
      posted++;
      const res = await request(`${server.baseUrl}/api/v1/platform-webhooks/meta`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, dispatcher: client });
      await res.body.dump();
      if (res.statusCode === 200) dueAt.set(`${id}:${status}`, at);
    });
    const tally = await tallyHeard(receiver.heard, dueAt);
    return {
      sends,
      statuses: { sent: posted, accepted: dueAt.size, ...tally, cpuPerStatus: cpuPer(cpuBefore, server.cpuSeconds(), tally.heard) },
      faults,
      backlog,
    };
  } catch (error) {
    process.stderr.write(`whatsapp bench failed; the server's last output:\n${server.output().slice(-3000)}\n`);
    throw error;
  } finally {
    await store.close();
    await s.stop();
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
    `  [SQLite] template sends, ${options.clients} clients closed-loop for ${options.seconds} s (serve in its own process; the sandbox, this load and the receiver in the bench process; sandbox faults set: ${result.faults}):`,
    `    ${Math.round(s.perSecond)} sends/s (${s.count} sent${s.failed ? `, ${s.failed} not 201` : ''}), p50 ${f(s.p50)} ms, p99 ${f(s.p99)} ms (target ≥ ${TARGETS.sendsPerSecond}/s: ${s.perSecond >= TARGETS.sendsPerSecond ? 'met' : 'NOT met'})`,
    ...(s.cpuPerSend === null ? [] : [`    server CPU ${Math.round(s.cpuPerSend)} µs per send (the send, and its \`sent\` status processed and delivered): at most ${Math.floor(1e6 / s.cpuPerSend)} sends/s on one core`]),
    `  [SQLite] statuses[] webhooks at ${options.rate}/s${result.backlog ? ` (${result.backlog} jobs of the sends still due at its start)` : ''}: ${st.heard}/${st.accepted} message.status heard (${st.sent} sent), ${st.lost} lost, ${st.twice} emitted twice`,
    ...(st.cpuPerStatus === null ? [] : [`    server CPU ${Math.round(st.cpuPerStatus)} µs per status (in, processed, delivered)`]),
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
