// Direct-messages benchmark (issue 15, point 6). Three figures:
//
// - inbound: signed Messenger webhooks (one new message each, from 200 people already in
//   conversation with the Page) sent open-loop at 500/s to the real server (`socialapi serve`,
//   API and worker in one process, as `npm start` runs it); the latency from each POST's due time
//   to its message.received reaching a receiver in this process (target: p99 under 200 ms),
//   with the messages lost or emitted twice;
// - history: GET /inbox/conversations/{id}/messages?limit=50 on a conversation of 100,000
//   messages, the newest page and a page from the middle (a `before` cursor), on the same server
//   (target: p99 under 10 ms);
// - send: POST /inbox/conversations/{id}/messages against the sandbox, each paired with the
//   same Send API call made straight to the sandbox; the service's overhead is the difference
//   within each pair (target: p99 under 10 ms). The service runs in its own process here too
//   (serve with its worker), and the sandbox in a third (bench/sandbox-process.ts): the Page's
//   token is one the sandbox issued, inserted in the store as the connect flow stores it.
//
// Each part prints the server's CPU per message, the figure least moved by other load on the machine.
//
//   node bench/messages.ts [--postgres URL] [--rate 500] [--seconds 10] [--history 100000] [--sends 2000]
//                          [--only inbound,history,send]
//
// Prints the figures against the targets (met / not met); asserts nothing.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { Agent, request } from 'undici';
import { parseConfig } from '../src/config.ts';
import { newId } from '../src/lib/ids.ts';
import { createSealer, resolveEncryptionKey } from '../src/lib/crypto.ts';
import { openMigratedStore } from '../src/runtime.ts';
import { encodePosition } from '../src/modules/conversations/cursors.ts';
import { measure } from './load.ts';
import { createBenchSchema } from './postgres.ts';
import { startService, type ServiceUnderTest } from './sandboxed-server.ts';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process.ts';
import { createKey, freePort, startServer, type RunningServer } from './server.ts';

export const TARGETS = { rate: 500, inboundP99Ms: 200, historyP99Ms: 10, sendOverheadP99Ms: 10 };

export interface MessagesBenchOptions {
  postgresUrl: string | null;
  rate: number;
  seconds: number;
  history: number;
  sends: number;
  /** The parts to run; all by default. */
  only: ReadonlySet<MessagesPart>;
}

export const MESSAGES_PARTS = ['inbound', 'history', 'send'] as const;
export type MessagesPart = (typeof MESSAGES_PARTS)[number];

export const DEFAULT_OPTIONS: MessagesBenchOptions = { postgresUrl: null, rate: 500, seconds: 10, history: 100_000, sends: 2000, only: new Set(MESSAGES_PARTS) };

const META_APP = { id: '100000000000098', secret: 'bench-meta-messages-secret' };
const PAGE_ID = '100000000000777';
const PEOPLE = 200;

const log = (line: string) => process.stdout.write(`${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const sortedOf = (values: number[]) => Float64Array.from(values).sort();
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export interface Receiver {
  url: string;
  /** key (by default the mid) → first arrival and how many deliveries named it. */
  heard: Map<string, { at: number; times: number }>;
  close(): Promise<void>;
}

/** A webhook receiver; `keyOf` names each delivery by its event data (the platform message id by default). */
export function startReceiver(keyOf: (data: Record<string, unknown>) => string | undefined = (data) => data.platformMessageId as string | undefined): Promise<Receiver> {
  const heard = new Map<string, { at: number; times: number }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(204).end();
      const data = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: Record<string, unknown> }).data;
      const mid = data ? keyOf(data) : undefined;
      if (!mid) return;
      const seen = heard.get(mid);
      if (seen) seen.times++;
      else heard.set(mid, { at, times: 1 });
    });
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        heard,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      }),
    );
  });
}

/** The Page account, its 200 conversations and one conversation of `history` messages, as the service would have stored them. */
async function seed(env: Record<string, string>, organizationId: string, history: number): Promise<{ longConversation: string; middleCursor: string }> {
  const config = parseConfig(env);
  const sealer = createSealer(resolveEncryptionKey(config.encryptionKey, config.dataDir).key);
  const store = await openMigratedStore(config);
  try {
    const now = Date.now();
    const accountId = newId('account', now);
    await store.db
      .insertInto('accounts')
      .values({
        id: accountId, organization_id: organizationId, platform: 'facebook', platform_user_id: PAGE_ID, username: null, display_name: 'Bench Page', avatar_url: null, external_id: 'bench-fb',
        status: 'active', approval_required: 0, access_token_enc: sealer.seal(`facebook-bench-${accountId}`), refresh_token_enc: null, token_expires_at: null,
        scopes: 'pages_show_list pages_messaging', metadata: JSON.stringify({ login: 'facebook' }), connected_at: now, updated_at: now,
      })
      .execute();
    const conversation = (participant: string) => ({
      id: newId('conversation', now), organization_id: organizationId, account_id: accountId, platform: 'facebook', platform_conversation_id: null, participant_id: participant,
      participant_username: null, participant_name: `Person ${participant}`, status: 'active' as const, unread: 0, last_message_at: now, last_message_text: null, last_inbound_at: now,
      sending_until: null, created_at: now, updated_at: now,
    });
    await store.db.insertInto('conversations').values(Array.from({ length: PEOPLE }, (_, k) => conversation(`psid-bench-${k}`))).execute();
    const long = conversation('psid-bench-history');
    await store.db.insertInto('conversations').values(long).execute();
    const start = now - history * 1000;
    let middle = '';
    for (let i = 0; i < history; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, history - i) }, (_, j) => {
        const n = i + j;
        const id = newId('message', now);
        const sentAt = start + n * 1000;
        if (n === Math.floor(history / 2)) middle = encodePosition(sentAt, id);
        return {
          id, organization_id: organizationId, account_id: accountId, conversation_id: long.id, direction: n % 2 ? ('outbound' as const) : ('inbound' as const),
          platform_message_id: `m_history_${n}`, text: `message ${n}`, attachments: '[]', status: 'read' as const, sent_at: sentAt, reaction: null, postback: null, created_at: now,
        };
      });
      // PostgreSQL takes at most 65,535 parameters a statement: 1,000 rows of 14 columns fit.
      await store.db.insertInto('messages').values(rows).execute();
    }
    // A bulk load is followed by ANALYZE on PostgreSQL, as autovacuum would have done by the time
    // a conversation grew this long; where it is off (as on the machine these figures come from),
    // the planner, with no statistics, reads and sorts the whole conversation for every page.
    if (env.DATABASE_URL?.startsWith('postgres')) await sql`analyze`.execute(store.db);
    return { longConversation: long.id, middleCursor: middle };
  } finally {
    await store.close();
  }
}

function signedMessage(mid: string, person: number): { body: string; signature: string } {
  const now = Date.now();
  const body = JSON.stringify({ object: 'page', entry: [{ id: PAGE_ID, time: now, messaging: [{ sender: { id: `psid-bench-${person}` }, recipient: { id: PAGE_ID }, timestamp: now, message: { mid, text: `Bench message ${mid}` } }] }] });
  return { body, signature: `sha256=${createHmac('sha256', META_APP.secret).update(body).digest('hex')}` };
}

/** Open loop: request i is due at start + i/rate and sent then, whatever the earlier ones did. */
export async function openLoop(rate: number, count: number, send: (i: number, due: number) => Promise<void>): Promise<void> {
  const start = performance.now() + 5;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    while (due > performance.now()) await sleep(Math.max(1, due - performance.now()));
    inFlight.push(send(i, due).catch(() => undefined));
  }
  await Promise.all(inFlight);
}

export interface MessagesStoreResult {
  store: string;
  /** Null when the part was not run; history is then empty. */
  inbound: { sent: number; accepted: number; heard: number; lost: number; twice: number; p50: number; p99: number; max: number; cpuPerMessage: number | null } | null;
  history: Array<{ name: string; p50: number; p99: number; rps: number; non2xx: number }>;
}

async function benchServer(store: string, databaseUrl: (dataDir: string) => Promise<{ url: string; drop(): Promise<void> }>, options: MessagesBenchOptions): Promise<MessagesStoreResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-bench-messages-'));
  const database = await databaseUrl(dataDir);
  const env: Record<string, string> = {
    DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: database.url, REDIS_URL: '',
    SANDBOX: '1', META_APP_ID: META_APP.id, META_APP_SECRET: META_APP.secret,
  };
  const receiver = await startReceiver();
  let server: RunningServer | null = null;
  const client = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  try {
    server = await startServer(env, 30_000, true);
    const historyLength = options.only.has('history') ? options.history : 0;
    log(`\n[${store}] messages: seeding a Page, ${PEOPLE} conversations and one of ${historyLength.toLocaleString('en-US')} messages`);
    const { longConversation, middleCursor } = await seed(env, server.organizationId, historyLength);
    const key = await createKey(env, server.organizationId, 1_000_000_000);
    const headers = { authorization: `Bearer ${key}` };
    const hook = await fetch(`${server.baseUrl}/api/v1/webhooks`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, events: ['message.received'] }) });
    if (hook.status !== 201) throw new Error(`POST /webhooks answered ${hook.status}`);

    const runInbound = async (seconds: number, prefix: string) => {
      const due = new Map<string, number>();
      let sent = 0;
      const base = server?.baseUrl ?? '';
      await openLoop(options.rate, Math.round(options.rate * seconds), async (i, at) => {
        const mid = `m_${prefix}_${i}`;
        const { body, signature } = signedMessage(mid, i % PEOPLE);
        sent++;
        const res = await request(`${base}/api/v1/platform-webhooks/meta`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, dispatcher: client });
        await res.body.dump();
        if (res.statusCode === 200) due.set(mid, at);
      });
      const tally = await tallyHeard(receiver.heard, due);
      return { sent, accepted: due.size, ...tally };
    };
    let inbound: MessagesStoreResult['inbound'] = null;
    if (options.only.has('inbound')) {
      log(`[${store}] warm-up: 2 s of messages at ${options.rate}/s`);
      await runInbound(2, 'warmup');
      log(`[${store}] inbound: ${options.seconds} s of messages at ${options.rate}/s`);
      const cpuBefore = server.cpuSeconds();
      const heard = await runInbound(options.seconds, 'run');
      const cpuAfter = server.cpuSeconds();
      // Server CPU per message: in (signature, store), processed (job), delivered (webhook).
      inbound = { ...heard, cpuPerMessage: cpuBefore === null || cpuAfter === null || heard.heard === 0 ? null : ((cpuAfter - cpuBefore) * 1e6) / heard.heard };
    }

    const history: MessagesStoreResult['history'] = [];
    const pages = options.only.has('history') ? ([['newest page', '?limit=50'], ['a page from the middle', `?limit=50&before=${encodeURIComponent(middleCursor)}`]] as const) : [];
    for (const [name, query] of pages) {
      const url = `${server.baseUrl}/api/v1/inbox/conversations/${longConversation}/messages${query}`;
      log(`[${store}] history: ${name}, 4 connections, 1 s warm-up then 5 s`);
      await measure(url, headers, { connections: 4, duration: 1 });
      const sample = await measure(url, headers, { connections: 4, duration: 5 });
      const sorted = sortedOf(sample.latencies);
      history.push({ name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps: sample.responses / sample.seconds, non2xx: sample.non2xx });
    }
    return { store, inbound, history };
  } catch (error) {
    if (server) process.stderr.write(`messages bench failed; the server's last output:\n${server.output().slice(-3000)}\n`);
    throw error;
  } finally {
    await server?.stop();
    await client.close();
    await receiver.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface SendResult {
  pairs: number;
  service: { p50: number; p99: number };
  platform: { p50: number; p99: number };
  overhead: { p50: number; p99: number };
  /** Server CPU µs per send (the send, and the processing of its echo and delivery webhooks); null where it cannot be read. */
  cpuPerSend: number | null;
}

const DM_SCOPES = ['pages_show_list', 'pages_manage_metadata', 'pages_read_engagement', 'pages_messaging'];

/** A Page with a token the sandbox issued, inserted in the server's store as the connect flow would have stored it. */
async function addPage(s: ServiceUnderTest, sandbox: SandboxProcess): Promise<{ accountId: string; pageId: string; token: string }> {
  const page = await sandbox.addFacebookPage(`facebook-bench-${newId('account').slice(4)}`, DM_SCOPES);
  const config = parseConfig(s.env);
  const sealer = createSealer(resolveEncryptionKey(config.encryptionKey, config.dataDir).key);
  const store = await openMigratedStore(config);
  const accountId = newId('account');
  const now = Date.now();
  try {
    await store.db
      .insertInto('accounts')
      .values({
        id: accountId, organization_id: s.organizationId, platform: 'facebook', platform_user_id: page.pageId, username: null, display_name: page.name, avatar_url: null, external_id: 'bench-send',
        status: 'active', approval_required: 0, access_token_enc: sealer.seal(page.token), refresh_token_enc: null, token_expires_at: null, scopes: DM_SCOPES.join(' '),
        metadata: JSON.stringify({ login: 'facebook', category: page.category, tasks: page.tasks }), connected_at: now, updated_at: now,
      })
      .execute();
  } finally {
    await store.close();
  }
  return { accountId, pageId: page.pageId, token: page.token };
}

/**
 * The send overhead: the service in its own process (serve with its worker) against the sandbox
 * in a third (sandbox-process.ts), as the platform is elsewhere in production: its webhooks load
 * the service, not this client. The Page is subscribed through the API; a person writes through
 * the sandbox, whose webhook makes the conversation; then pairs, one request at a time.
 */
async function benchSend(sends: number): Promise<SendResult> {
  const sandbox = await startSandboxProcess();
  let s: ServiceUnderTest | null = null;
  try {
    s = await startService('messages-send', sandbox.url);
    const page = await addPage(s, sandbox);
    // The direct calls go from a second Page, not subscribed to the service's webhooks: the same
    // call for the sandbox, but its echo and delivery webhooks do not load the service.
    const direct = await addPage(s, sandbox);
    const subscribed = await s.api('POST', `/accounts/${page.accountId}/webhook-subscription`);
    if (subscribed.status !== 200) throw new Error(`POST webhook-subscription answered ${subscribed.status}: ${JSON.stringify(subscribed.body)}`);
    const personWrites = async (pageId: string) => {
      const wrote = await fetch(`${sandbox.url}/_sandbox/meta/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: pageId, text: 'Hello', from: { name: 'Bench Person' } }) });
      const written = (await wrote.json()) as { senderId?: string };
      if (wrote.status !== 200 || !written.senderId) throw new Error(`the sandbox's person did not write (${wrote.status})`);
      return written.senderId;
    };
    await personWrites(page.pageId);
    const directRecipient = await personWrites(direct.pageId);
    let conversationId = '';
    for (let i = 0; i < 200 && !conversationId; i++) {
      const listed = await s.api('GET', `/inbox/conversations?accountId=${page.accountId}`);
      conversationId = (listed.body.conversations as Array<{ id: string }> | undefined)?.[0]?.id ?? '';
      if (!conversationId) await sleep(50);
    }
    if (!conversationId) throw new Error('the conversation was not stored');
    const serviceUrl = `${s.server.baseUrl}/api/v1/inbox/conversations/${conversationId}/messages`;
    const platformUrl = `${sandbox.url}/graph.facebook.com/v24.0/${direct.pageId}/messages`;
    const client = new Agent({ connections: 2, keepAliveTimeout: 30_000 });
    const time = async (url: string, headers: Record<string, string>, body: unknown, expect: number) => {
      const started = performance.now();
      const res = await request(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), dispatcher: client });
      await res.body.arrayBuffer();
      if (res.statusCode !== expect) throw new Error(`${url} answered ${res.statusCode}`);
      return performance.now() - started;
    };
    const service: number[] = [];
    const platform: number[] = [];
    const overhead: number[] = [];
    let cpuBefore: number | null = null;
    try {
      for (let i = 0; i < sends + 50; i++) {
        // The first 50 pairs warm up.
        if (i === 50) cpuBefore = s.server.cpuSeconds();
        const a = await time(serviceUrl, { authorization: `Bearer ${s.key}` }, { text: `Answer ${i}` }, 201);
        const b = await time(platformUrl, { authorization: `Bearer ${direct.token}` }, { recipient: { id: directRecipient }, messaging_type: 'RESPONSE', message: { text: `Direct ${i}` } }, 200);
        if (i < 50) continue;
        service.push(a);
        platform.push(b);
        overhead.push(a - b);
      }
    } finally {
      await client.close();
    }
    // The echoes of the last sends are processed before the CPU is read.
    await sandbox.idle();
    await sleep(500);
    const cpuAfter = s.server.cpuSeconds();
    const sorted = [sortedOf(service), sortedOf(platform), sortedOf(overhead)] as const;
    const [sv, pl, ov] = sorted.map((x) => ({ p50: percentile(x, 50), p99: percentile(x, 99) }));
    return {
      pairs: sends,
      service: sv ?? { p50: NaN, p99: NaN },
      platform: pl ?? { p50: NaN, p99: NaN },
      overhead: ov ?? { p50: NaN, p99: NaN },
      cpuPerSend: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / sends,
    };
  } catch (error) {
    if (s) process.stderr.write(`messages send bench failed; the server's last output:\n${s.server.output().slice(-3000)}\n`);
    throw error;
  } finally {
    await s?.stop();
    await sandbox.close();
  }
}

export interface MessagesResult {
  stores: MessagesStoreResult[];
  /** Null when the part was not run. */
  send: SendResult | null;
}

export async function benchMessages(options: MessagesBenchOptions = DEFAULT_OPTIONS): Promise<MessagesResult> {
  const sqlite = (dataDir: string) => Promise.resolve({ url: `sqlite:${join(dataDir, 'socialapi.db')}`, drop: () => Promise.resolve() });
  const stores: MessagesStoreResult[] = [];
  if (options.only.has('inbound') || options.only.has('history')) {
    stores.push(await benchServer('SQLite', sqlite, options));
    const postgresUrl = options.postgresUrl;
    if (postgresUrl) stores.push(await benchServer('PostgreSQL', () => createBenchSchema(postgresUrl), options));
  }
  if (!options.only.has('send')) return { stores, send: null };
  log(`\n[SQLite] send: ${options.sends} sends through the service, each paired with the same call straight to the sandbox`);
  return { stores, send: await benchSend(options.sends) };
}

const f = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(1));
const verdict = (value: number, target: number) => (value < target ? 'met' : 'NOT met');

export function formatMessagesResult(result: MessagesResult, options: MessagesBenchOptions): string[] {
  const out = ['', 'Direct messages (issue 15)'];
  for (const r of result.stores) {
    const i = r.inbound;
    if (!i) out.push(`  [${r.store}]`);
    else {
      out.push(`  [${r.store}] inbound at ${options.rate}/s for ${options.seconds} s: ${i.heard}/${i.accepted} message.received heard (${i.sent} sent), ${i.lost} lost, ${i.twice} emitted twice`);
      if (i.cpuPerMessage !== null) out.push(`    server CPU ${Math.round(i.cpuPerMessage)} µs per message (in, processed, delivered): at most ${Math.floor(1e6 / i.cpuPerMessage)} messages/s on one core`);
      out.push(`    webhook POST → message.received at the receiver: p50 ${f(i.p50)} ms, p99 ${f(i.p99)} ms, max ${f(i.max)} ms (target p99 < ${TARGETS.inboundP99Ms} ms at ${TARGETS.rate}/s: ${options.rate >= TARGETS.rate ? verdict(i.p99, TARGETS.inboundP99Ms) : 'not measured at 500/s'})`);
    }
    for (const h of r.history) {
      out.push(`    history, ${options.history.toLocaleString('en-US')} messages, ${h.name} of 50: p50 ${f(h.p50)} ms, p99 ${f(h.p99)} ms, ${Math.round(h.rps)} req/s${h.non2xx ? `, ${h.non2xx} non-2xx` : ''} (target p99 < ${TARGETS.historyP99Ms} ms: ${verdict(h.p99, TARGETS.historyP99Ms)})`);
    }
  }
  const s = result.send;
  if (!s) return out;
  out.push(`  [SQLite] send, ${s.pairs} pairs one at a time (serve, the sandbox and this client in three processes): through the service p50 ${f(s.service.p50)} / p99 ${f(s.service.p99)} ms; the same call straight to the sandbox p50 ${f(s.platform.p50)} / p99 ${f(s.platform.p99)} ms`);
  if (s.cpuPerSend !== null) out.push(`    server CPU ${Math.round(s.cpuPerSend)} µs per send (the send, and the processing of its echo and delivery webhooks)`);
  out.push(`    service overhead (service − direct, per pair): p50 ${f(s.overhead.p50)} ms, p99 ${f(s.overhead.p99)} ms (target p99 < ${TARGETS.sendOverheadP99Ms} ms: ${verdict(s.overhead.p99, TARGETS.sendOverheadP99Ms)})`);
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { postgres: { type: 'string' }, rate: { type: 'string' }, seconds: { type: 'string' }, history: { type: 'string' }, sends: { type: 'string' }, only: { type: 'string' } } });
  const only = (values.only ?? MESSAGES_PARTS.join(',')).split(',').map((name) => name.trim());
  for (const name of only) if (!(MESSAGES_PARTS as readonly string[]).includes(name)) throw new Error(`--only takes ${MESSAGES_PARTS.join(', ')} (got "${name}")`);
  const options: MessagesBenchOptions = {
    postgresUrl: values.postgres ?? process.env.BENCH_DATABASE_URL ?? null,
    rate: Number(values.rate ?? DEFAULT_OPTIONS.rate),
    seconds: Number(values.seconds ?? DEFAULT_OPTIONS.seconds),
    history: Number(values.history ?? DEFAULT_OPTIONS.history),
    sends: Number(values.sends ?? DEFAULT_OPTIONS.sends),
    only: new Set(only as MessagesPart[]),
  };
  log(formatMessagesResult(await benchMessages(options), options).join('\n'));
}

/**
 * Waits until every key in `due` was heard, or nothing new arrived for 10 s, then counts: the
 * latencies from each key's due time to its first arrival, the keys never heard, those heard twice.
 */
export async function tallyHeard(heard: Map<string, { at: number; times: number }>, due: Map<string, number>): Promise<{ heard: number; lost: number; twice: number; p50: number; p99: number; max: number }> {
  let last = -1;
  let quietSince = performance.now();
  while ([...due.keys()].some((key) => !heard.has(key)) && performance.now() - quietSince < 10_000) {
    if (heard.size !== last) {
      last = heard.size;
      quietSince = performance.now();
    }
    await sleep(50);
  }
  const latencies: number[] = [];
  let lost = 0;
  let twice = 0;
  for (const [key, at] of due) {
    const seen = heard.get(key);
    if (!seen) lost++;
    else {
      latencies.push(seen.at - at);
      if (seen.times > 1) twice++;
    }
  }
  const sorted = sortedOf(latencies);
  return { heard: latencies.length, lost, twice, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}
