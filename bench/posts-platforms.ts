// Delivery per platform (issues 31 and 32): for each platform that publishes a text post, an
// account connected through the real connect flow (GET /connect/{platform}, the sandbox's consent
// page, the callback, and the first option of a pending choice), then POSTS single-target posts
// falling due together. Each platform's targets per second and the server's CPU per target are
// set beside the others' in the same run: a new platform's figures are within 20% of the mean
// of the platforms that came before it.
//
// The table below is the bench's own knowledge of what it measures: the options a minimal text
// post needs, and the sandbox limits lifted so that hundreds of posts by one account pass (the
// real platforms' per-account caps are tested elsewhere).
import type { SandboxState } from '../src/sandbox/index.ts';
import { openConsent, submitConsent } from '../test/sandbox/helpers.ts';
import type { Stage } from './posts.ts';

export interface PlatformBench {
  platform: string;
  options: Record<string, unknown>;
  /** Lifts the sandbox's per-account limits for the run. */
  lift?(state: SandboxState): void;
}

/** The established platforms first; the ones judged against them after (NEWER). */
export const PLATFORM_BENCHES: readonly PlatformBench[] = [
  { platform: 'reddit', options: { subreddit: 'sandbox' } },
  { platform: 'threads', options: {} },
  { platform: 'facebook', options: {} },
  { platform: 'x', options: {}, lift: (state) => state.updateSettings({ x: { postsPer15Min: 1e9 } }) },
  { platform: 'linkedin', options: {}, lift: (state) => state.updateSettings({ linkedin: { dailyPosts: 1e9 } }) },
];

/** Judged against the mean of the others (the platforms added by issues 31 and 32). */
export const NEWER = new Set(['x', 'linkedin']);
export const WITHIN = 0.2;

export interface PlatformDelivery {
  platform: string;
  targets: number;
  published: number;
  failed: number;
  perSecond: number;
  cpuMicros: number | null;
}

const REDIRECT = 'https://bench.invalid/connected';

/** An account of `platform` connected as a person would: consent, callback, and the first option if a choice is pending. */
export async function connectAccount(stage: Stage, platform: string): Promise<string> {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${stage.server.baseUrl}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${stage.key}`, 'content-type': 'application/json', ...init.headers } });
  const start = await api(`/connect/${platform}?redirectUrl=${encodeURIComponent(REDIRECT)}`);
  if (start.status !== 200) throw new Error(`GET /connect/${platform} answered ${start.status}: ${(await start.text()).slice(0, 300)}`);
  const { authUrl } = (await start.json()) as { authUrl: string };
  const callback = await submitConsent(await openConsent(authUrl));
  const done = await fetch(callback, { redirect: 'manual' });
  const location = new URL(done.headers.get('location') ?? REDIRECT);
  const accountId = location.searchParams.get('accountId');
  if (accountId) return accountId;
  const pendingId = location.searchParams.get('pendingId');
  if (!pendingId) throw new Error(`connecting ${platform} ended at ${location.toString()}`);
  const pending = (await (await api(`/connect/pending/${pendingId}`)).json()) as { pending: { options: Array<{ id: string }> } };
  const first = pending.pending.options[0]?.id;
  const selected = await api(`/connect/pending/${pendingId}/select`, { method: 'POST', body: JSON.stringify({ optionIds: [first] }) });
  const body = (await selected.json()) as { accounts?: Array<{ id: string }> };
  const id = body.accounts?.[0]?.id;
  if (!id) throw new Error(`selecting a ${platform} option answered ${selected.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return id;
}

/** Each platform's delivery in turn, on one server with its worker. */
export async function benchPlatforms(
  stage: Stage,
  state: SandboxState,
  posts: number,
  deliver: (label: string, bodies: Array<Record<string, unknown>>, total: number) => Promise<{ published: number; failed: number; perSecond: number; cpuMicros: number | null }>,
  label: string,
): Promise<PlatformDelivery[]> {
  const results: PlatformDelivery[] = [];
  for (const bench of PLATFORM_BENCHES) {
    bench.lift?.(state);
    const accountId = await connectAccount(stage, bench.platform);
    const bodies = Array.from({ length: posts }, (_, i) => ({ content: `${label} ${bench.platform} ${i}`, platforms: [{ accountId, platformSpecificData: bench.options }] }));
    const figures = await deliver(`${label} ${bench.platform}`, bodies, posts);
    results.push({ platform: bench.platform, targets: posts, ...figures });
  }
  return results;
}

/** The lines of the report: each platform, and the newer ones against the mean of the others. */
export function formatPlatforms(results: readonly PlatformDelivery[]): string[] {
  const older = results.filter((r) => !NEWER.has(r.platform));
  const mean = (pick: (r: PlatformDelivery) => number | null) => {
    const values = older.map(pick).filter((v): v is number => v !== null);
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  };
  const rate = mean((r) => r.perSecond);
  const cpu = mean((r) => r.cpuMicros);
  const lines = [`  delivery per platform (${results[0]?.targets ?? 0} single-target text posts each, due together):`];
  for (const r of results) {
    let verdict = '';
    if (NEWER.has(r.platform) && rate !== null) {
      const rateOk = r.perSecond >= rate * (1 - WITHIN);
      const cpuOk = cpu === null || r.cpuMicros === null || r.cpuMicros <= cpu * (1 + WITHIN);
      verdict = `; against the others' mean ${Math.round(rate)}/s${cpu === null ? '' : `, ${Math.round(cpu)} µs`}: within ${WITHIN * 100}% ${rateOk && cpuOk && r.failed === 0 ? 'met' : 'NOT met'}`;
    }
    lines.push(
      `    ${r.platform.padEnd(9)} ${String(Math.round(r.perSecond)).padStart(5)} targets/s, ${r.cpuMicros === null ? '?' : Math.round(r.cpuMicros)} µs server CPU per target (${r.published}/${r.targets} published, ${r.failed} failed${verdict})`,
    );
  }
  return lines;
}
