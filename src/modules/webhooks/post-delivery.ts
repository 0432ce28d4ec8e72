// One HTTP POST of a delivery: signed afresh (and with the previous secret too while a rotation's
// grace lasts), 10-second limit, redirects not followed (a 3xx is a
// failure), only 2xx counts, and the receiver's address checked at connection time like every
// URL a client gives us (lib/safe-fetch.ts). Nothing here retries: the schedule belongs to the
// send job.
import type { Readable } from 'node:stream';
import { API_VERSION } from '../../http/openapi.ts';
import { messageOf } from '../../lib/errors.ts';
import { createGuardedAgent, safeFetch } from '../../lib/safe-fetch.ts';
import type { Agent } from 'undici';
import { signPayload } from '../../sdk/verify-webhook.ts';

export const USER_AGENT = `SocialAPI-Webhooks/${API_VERSION}`;

export interface DeliveryRequest {
  url: string;
  secret: string;
  /** A rotated-out secret still in its grace period: signs X-SocialAPI-Signature-Previous. */
  previousSecret: string | null;
  deliveryId: string;
  body: string;
  now: number;
}

export interface DeliveryOutcome {
  ok: boolean;
  status: number | null;
  timedOut: boolean;
  retryAfter: string | null;
  error: string | null;
  durationMs: number;
}

export interface PostOptions {
  timeoutMs: number;
  /** ALLOW_PRIVATE_URLS: loopback and private receivers (development and tests). */
  allowPrivate: boolean;
}

// One keep-alive agent per address policy for the process: receivers get many deliveries, and a
// new connection for each would cost more than the delivery itself. Connections are checked
// against the policy when they are opened.
const agents = new Map<boolean, Promise<Agent>>();
function agentFor(allowPrivate: boolean, timeoutMs: number): Promise<Agent> {
  let agent = agents.get(allowPrivate);
  if (!agent) {
    agent = createGuardedAgent({ allowPrivate, requireHttps: !allowPrivate, connectTimeoutMs: timeoutMs });
    agents.set(allowPrivate, agent);
  }
  return agent;
}

export async function postDelivery(request: DeliveryRequest, options: PostOptions): Promise<DeliveryOutcome> {
  const { timeoutMs } = options;
  const timestamp = String(Math.floor(request.now / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-socialapi-timestamp': timestamp,
    'x-socialapi-signature': signPayload(request.secret, timestamp, request.body),
    'x-idempotency-key': request.deliveryId,
  };
  if (request.previousSecret !== null) headers['x-socialapi-signature-previous'] = signPayload(request.previousSecret, timestamp, request.body);
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await safeFetch(request.url, {
      method: 'POST',
      headers,
      body: request.body,
      signal,
      maxRedirects: 0,
      agent: await agentFor(options.allowPrivate, timeoutMs),
      allowPrivate: options.allowPrivate,
      requireHttps: !options.allowPrivate,
      connectTimeoutMs: timeoutMs,
      headersTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs,
      timeoutMs,
    });
    // Read a little of the answer for the attempt log, then let the rest go.
    const text = await readSome(response.body, 512);
    const durationMs = Math.round(performance.now() - started);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      status: response.status,
      timedOut: false,
      retryAfter: response.headers['retry-after'] ?? null,
      error: ok ? null : `HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : ''}${text ? `: ${text.slice(0, 200)}` : ''}`,
      durationMs,
    };
  } catch (error) {
    const timedOut = signal.aborted;
    return {
      ok: false,
      status: null,
      timedOut,
      retryAfter: null,
      error: timedOut ? `timed out after ${timeoutMs} ms` : messageOf(error),
      durationMs: Math.round(performance.now() - started),
    };
  }
}

async function readSome(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      chunks.push(bytes);
      size += bytes.length;
      if (size >= limit) break;
    }
  } catch {
    // A body cut short does not change the outcome, which the status already gave.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, limit).replace(/\s+/g, ' ').trim();
}
