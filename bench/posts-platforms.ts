// Delivery per platform (issues 31 and 32): for each platform, an account connected through the
// real connect flow (GET /connect/{platform}, the sandbox's consent page or the service's own
// sign-in page, the callback, and the first option of a pending choice), then POSTS
// single-target posts falling due together (with a small image or video from a loopback file
// server where the platform needs media). Each platform's targets per second and the server's
// CPU per target are set beside the others' in the same run: a newer platform's figures are
// within 20% of the mean of the platforms that came before it. YouTube's upload is measured
// apart, in bytes per second through the resumable upload.
//
// The table below is the bench's own knowledge of what it measures: the options a minimal post
// needs, and the limits lifted so that hundreds of posts by one account pass (the real
// platforms' per-account caps are tested elsewhere).
import type { SandboxState } from '../src/sandbox/index.ts';
import { fileServer, openConsent, samples, submitConsent } from '../test/sandbox/helpers.ts';
import type { Stage } from './posts.ts';

/** Where a post's media is served from, and how to ask the API. */
export interface BenchContext {
  files: string;
  api(path: string, init?: RequestInit): Promise<Response>;
}

export interface PlatformBench {
  platform: string;
  /** The options of a minimal post of this account. */
  options(context: BenchContext, accountId: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Lifts the sandbox's per-account limits for the run. */
  lift?(state: SandboxState): void;
  /** A platform that signs in on the service's own page: what the person types there (the sandbox's seeded account). */
  signIn?: Record<string, string>;
}

/** The server's settings that lift the service's own counting for the run. */
export const BENCH_SERVER_ENV = { YOUTUBE_DAILY_UPLOADS: '1000000', YOUTUBE_DAILY_UNITS: '1000000000' };

const video = (c: BenchContext) => `${c.files}/v.mp4`;

/** The established platforms first; the ones judged against them after (NEWER). */
export const PLATFORM_BENCHES: readonly PlatformBench[] = [
  { platform: 'reddit', options: () => ({ subreddit: 'sandbox' }) },
  { platform: 'threads', options: () => ({}) },
  { platform: 'facebook', options: () => ({}) },
  { platform: 'instagram', options: (c) => ({ mediaUrl: `${c.files}/a.jpg` }) },
  { platform: 'x', options: () => ({}), lift: (state) => state.updateSettings({ x: { postsPer15Min: 1e9 } }) },
  { platform: 'linkedin', options: () => ({}), lift: (state) => state.updateSettings({ linkedin: { dailyPosts: 1e9 } }) },
  {
    platform: 'youtube',
    options: (c) => ({ mediaUrl: video(c), title: 'Bench video', madeForKids: false }),
    lift: (state) => state.updateSettings({ youtube: { quota: 1e12, uploads: 1e9, channelDailyUploads: 1e9 } }),
  },
  {
    platform: 'pinterest',
    async options(c, accountId) {
      const boards = (await (await c.api(`/accounts/${accountId}/boards`)).json()) as { boards: Array<{ id: string }> };
      return { boardId: boards.boards[0]?.id, mediaUrl: `${c.files}/a.jpg` };
    },
    lift: (state) => state.updateSettings({ pinterest: { writesPerMinute: 1e9, readsPerMinute: 1e9 } }),
  },
  {
    platform: 'bluesky',
    options: () => ({}),
    signIn: { identifier: 'sandbox.bsky.social', password: 'sand-box0-app0-pass' },
    // 5,000 record-write points an hour and 3,000 requests in 5 minutes would stop a run of hundreds of posts.
    lift: (state) => state.updateSettings({ bluesky: { writePointsPerHour: 1e9, writePointsPerDay: 1e9, requestsPer5Min: 1e9 } }),
  },
];

/** Judged against the mean of the others (the platforms added by issues 31 and 32). */
export const NEWER = new Set(['x', 'linkedin', 'youtube', 'pinterest', 'bluesky']);
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

const apiOf = (stage: Stage) => (path: string, init: RequestInit = {}) =>
  fetch(`${stage.server.baseUrl}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${stage.key}`, 'content-type': 'application/json', ...init.headers } });

/** An account of `platform` connected as a person would: consent, callback, and the first option if a choice is pending. */
export async function connectAccount(stage: Stage, platform: string, signIn?: Record<string, string>): Promise<string> {
  const api = apiOf(stage);
  const start = await api(`/connect/${platform}?redirectUrl=${encodeURIComponent(REDIRECT)}`);
  if (start.status !== 200) throw new Error(`GET /connect/${platform} answered ${start.status}: ${(await start.text()).slice(0, 300)}`);
  const { authUrl } = (await start.json()) as { authUrl: string };
  const done = signIn ? await submitSignIn(authUrl, signIn) : await fetch(await submitConsent(await openConsent(authUrl)), { redirect: 'manual' });
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

/** The service's own sign-in page (GET /connect/{platform} answered it): its form posted with the state. */
async function submitSignIn(pageUrl: string, fields: Record<string, string>): Promise<Response> {
  const url = new URL(pageUrl);
  return fetch(new URL(url.pathname, url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ state: url.searchParams.get('state') ?? '', ...fields }).toString(),
    redirect: 'manual',
  });
}

type Deliver = (label: string, bodies: Array<Record<string, unknown>>, total: number) => Promise<{ published: number; failed: number; perSecond: number; cpuMicros: number | null }>;

/** YouTube's upload: one video of this many bytes, through the resumable upload in 8 MiB chunks. */
export const UPLOAD_BYTES = 64 * 1024 * 1024;

export interface UploadFigure {
  bytes: number;
  seconds: number;
  bytesPerSecond: number;
}

/** Each platform's delivery in turn, on one server with its worker; then YouTube's upload rate. */
export async function benchPlatforms(stage: Stage, state: SandboxState, posts: number, deliver: Deliver, label: string): Promise<{ platforms: PlatformDelivery[]; upload: UploadFigure | null }> {
  const big = Buffer.concat([samples.mp4, Buffer.alloc(UPLOAD_BYTES - samples.mp4.length)]);
  const files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/v.mp4': { body: samples.mp4 }, '/big.mp4': { body: big } });
  const context: BenchContext = { files: files.url, api: apiOf(stage) };
  try {
    const results: PlatformDelivery[] = [];
    let youtube: { accountId: string; options: Record<string, unknown> } | null = null;
    for (const bench of PLATFORM_BENCHES) {
      bench.lift?.(state);
      const accountId = await connectAccount(stage, bench.platform, bench.signIn);
      const options = await bench.options(context, accountId);
      if (bench.platform === 'youtube') youtube = { accountId, options };
      const bodies = Array.from({ length: posts }, (_, i) => ({ content: `${label} ${bench.platform} ${i}`, platforms: [{ accountId, platformSpecificData: options }] }));
      const figures = await deliver(`${label} ${bench.platform}`, bodies, posts);
      results.push({ platform: bench.platform, targets: posts, ...figures });
    }
    let upload: UploadFigure | null = null;
    if (youtube) {
      const body = { content: `${label} upload`, platforms: [{ accountId: youtube.accountId, platformSpecificData: { ...youtube.options, mediaUrl: `${files.url}/big.mp4` } }] };
      const figures = await deliver(`${label} youtube upload of ${UPLOAD_BYTES / 1024 / 1024} MiB`, [body], 1);
      const seconds = figures.perSecond > 0 ? 1 / figures.perSecond : 0;
      upload = figures.published === 1 ? { bytes: UPLOAD_BYTES, seconds, bytesPerSecond: UPLOAD_BYTES / seconds } : null;
    }
    return { platforms: results, upload };
  } finally {
    await files.close();
  }
}

/** The lines of the report: each platform, and the newer ones against the mean of the others. */
export function formatPlatforms(results: readonly PlatformDelivery[], upload: UploadFigure | null = null): string[] {
  const older = results.filter((r) => !NEWER.has(r.platform));
  const mean = (pick: (r: PlatformDelivery) => number | null) => {
    const values = older.map(pick).filter((v): v is number => v !== null);
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  };
  const rate = mean((r) => r.perSecond);
  const cpu = mean((r) => r.cpuMicros);
  const lines = [`  delivery per platform (${results[0]?.targets ?? 0} single-target posts each, due together; media from a loopback file server):`];
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
  if (upload) lines.push(`    youtube upload: ${(upload.bytes / 1024 / 1024).toFixed(0)} MiB fetched and sent through the resumable upload in ${upload.seconds.toFixed(1)} s (${(upload.bytesPerSecond / 1024 / 1024).toFixed(1)} MiB/s, from the due time to published)`);
  return lines;
}
