// Webhook delivery: events per second delivered to a fast local receiver, and the latency from
// an event's commit to the receiver's request, on the real server (`socialapi serve`, API and
// worker in one process, as `npm start` runs it).
//
//   npx node bench/webhooks.ts [--rate 200] [--seconds 10] [--burst 2000] [--postgres URL]
//
// Events are made by POST /webhooks/{id}/test (one event, one delivery, committed before the
// answer). The event's createdAt is stamped in the committing transaction, so "receiver time −
// createdAt" is commit-to-request latency (both clocks are this machine's). Two phases:
// a steady rate (target: p99 under 100 ms at 200 events/s on SQLite), then a burst sent as fast
// as the API takes it, for the delivery throughput. Prints figures; asserts nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, fetch as undiciFetch } from 'undici';
import { createBenchSchema } from './postgres.ts';
import { createKey, freePort, startServer } from './server.ts';

interface Arrival {
  latencyMs: number;
  at: number;
}

function startReceiver(): Promise<{ server: Server; url: string; arrivals: Arrival[] }> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: string };
      arrivals.push({ latencyMs: at - Date.parse(body.createdAt), at });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals }));
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

export async function benchWebhooks(options: { rate: number; seconds: number; burst: number; postgresUrl: string | null }): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-bench-webhooks-'));
  const schema = options.postgresUrl ? await createBenchSchema(options.postgresUrl) : null;
  const env: Record<string, string> = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...(schema ? { DATABASE_URL: schema.url } : {}) };
  const receiver = await startReceiver();
  const server = await startServer(env, 30_000, true);
  try {
    const key = await createKey(env, server.organizationId, 1_000_000_000);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.baseUrl}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url }) });
    const { webhook } = (await created.json()) as { webhook: { id: string } };
    // At most 64 connections to the server, reused: a load generator that opens a connection for
    // every request it cannot send at once measures its own sockets, not the service.
    const client = new Agent({ connections: 64 });
    let failedRequests = 0;
    let fired = 0;
    const fire = () =>
      undiciFetch(`${server.baseUrl}/api/v1/webhooks/${webhook.id}/test`, { method: 'POST', headers: { authorization: headers.authorization }, dispatcher: client })
        .then(async (r) => {
          await r.arrayBuffer();
          if (r.status === 202) fired++;
          else failedRequests++;
        })
        .catch(() => {
          failedRequests++;
        });

    // Steady rate: one event every 1000/rate ms, for `seconds`.
    const total = options.rate * options.seconds;
    const interval = 1000 / options.rate;
    const start = performance.now();
    const inFlight: Array<Promise<unknown>> = [];
    for (let i = 0; i < total; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight.push(fire());
    }
    await Promise.all(inFlight);
    const delivered = await waitUntil(() => receiver.arrivals.length >= fired, 30_000);
    const steady = receiver.arrivals.splice(0).map((a) => a.latencyMs).sort((a, b) => a - b);

    // Burst: as fast as the API takes them (32 requests at a time).
    const steadyFailed = failedRequests;
    const steadyFired = fired;
    fired = 0;
    failedRequests = 0;
    const burstStart = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < options.burst) {
          next++;
          await fire();
        }
      }),
    );
    await waitUntil(() => receiver.arrivals.length >= fired, 60_000);
    const burstArrivals = receiver.arrivals.splice(0);
    const lastAt = Math.max(...burstArrivals.map((a) => a.at));
    const burstRate = burstArrivals.length / ((lastAt - burstStart) / 1000);

    const store = schema ? 'PostgreSQL' : 'SQLite';
    const p99 = percentile(steady, 0.99);
    console.log(`\nWebhook delivery on ${store} (serve: API + worker in one process)`);
    console.log(`  steady ${options.rate} events/s for ${options.seconds} s: ${steady.length} of ${steadyFired} events delivered${delivered ? '' : ' (some missing after 30 s)'}${steadyFailed ? `; ${steadyFailed} event requests failed` : ''}`);
    console.log(`    commit → receiver latency: p50 ${percentile(steady, 0.5)} ms, p90 ${percentile(steady, 0.9)} ms, p99 ${p99} ms, max ${steady.at(-1) ?? NaN} ms`);
    console.log(`    target p99 < 100 ms at 200 events/s: ${p99 < 100 && options.rate >= 200 ? 'met' : options.rate >= 200 ? 'NOT met' : 'not measured at 200/s'}`);
    console.log(`  burst of ${options.burst}${failedRequests ? ` (${failedRequests} requests failed)` : ''}: ${burstArrivals.length} delivered at ${Math.round(burstRate)} events/s (first request to last delivery)`);
  } catch (error) {
    process.stderr.write(`webhook bench failed; the server's last output:\n${server.output().slice(-3000)}\n`);
    throw error;
  } finally {
    await server.stop();
    receiver.server.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { rate: { type: 'string' }, seconds: { type: 'string' }, burst: { type: 'string' }, postgres: { type: 'string' } } });
  await benchWebhooks({
    rate: Number(values.rate ?? 200),
    seconds: Number(values.seconds ?? 10),
    burst: Number(values.burst ?? 2000),
    postgresUrl: values.postgres ?? process.env.BENCH_DATABASE_URL ?? null,
  });
}
