// video.bsky.app (bluesky.md §5): service tokens from the PDS's getServiceAuth (uploads: aud the
// PDS's did:web, lxm com.atproto.repo.uploadBlob, since the service then writes the blob to the
// account's repository; limits: aud did:web:video.bsky.app, lxm app.bsky.video.getUploadLimits).
// Bluesky-hosted accounts need a verified email and have a daily count and bytes
// (`bluesky.dailyVideos`, `bluesky.dailyVideoBytes`). A job encodes for
// `processing.blueskyVideoMs` of sandbox time (its state is computed when asked, so it needs no
// timer and survives a restart), then its blob is the account's, usable in app.bsky.embed.video.
// Bytes that are not a video end the job JOB_STATE_FAILED. Answers as the live service gives them
// (atproto issues #3026, #3097, atproto-website #407): uploadVideo answers the job status bare, not
// under `jobStatus` as its lexicon says; a video the account already had processed answers an
// error body `{did, error: "already_exists", jobId, message: "Video already processed", state:
// "JOB_STATE_COMPLETED"}` whose job has the earlier blob (the docs: check for a blob whatever the
// outcome; the sandbox answers it with 409, a status not confirmed); an unconfirmed email answers
// `{jobStatus: {did: "", error: "unconfirmed_email", jobId: "", state: ""}}`.
import { PlatformError } from '../core/platform-error.ts';
import { isRawBody } from '../core/body.ts';
import type { RouteContext } from '../core/router.ts';
import { sniff } from '../media/sniff.ts';
import { blobRef, keepBlob } from './blobs.ts';
import { blobCid } from './codec.ts';
import { invalidRequest, xrpcError } from './errors.ts';
import type { BlueskyAccount } from './people.ts';
import { serviceAuth } from './service-auth.ts';
import { PDS_DID, VIDEO_DID } from './sessions.ts';
import type { VideoJob } from './store.ts';

const DAY = 86_400_000;

function usedToday(ctx: RouteContext, did: string): { videos: number; bytes: number } {
  const since = ctx.state.clock.now() - DAY;
  let videos = 0;
  let bytes = 0;
  for (const job of ctx.state.bluesky.videoJobs.values()) {
    if (job.did !== did || job.createdAt <= since || job.alreadyExists) continue;
    videos++;
    bytes += job.size;
  }
  return { videos, bytes };
}

function limits(ctx: RouteContext, account: BlueskyAccount) {
  const { dailyVideos, dailyVideoBytes } = ctx.state.settings.bluesky;
  const used = usedToday(ctx, account.did);
  const remainingDailyVideos = Math.max(0, dailyVideos - used.videos);
  const remainingDailyBytes = Math.max(0, dailyVideoBytes - used.bytes);
  const message = !account.emailConfirmed
    ? 'You must verify your email address before uploading videos.'
    : remainingDailyVideos === 0 || remainingDailyBytes === 0
      ? 'You have reached your daily upload limit.'
      : undefined;
  return { canUpload: message === undefined, remainingDailyVideos, remainingDailyBytes, ...(message ? { message } : {}) };
}

/** GET app.bsky.video.getUploadLimits. */
export function getUploadLimits(ctx: RouteContext): unknown {
  return limits(ctx, serviceAuth(ctx, VIDEO_DID, 'app.bsky.video.getUploadLimits'));
}

/** POST app.bsky.video.uploadVideo?did&name, the bytes as video/mp4. */
export function uploadVideo(ctx: RouteContext): unknown {
  const account = serviceAuth(ctx, PDS_DID, 'com.atproto.repo.uploadBlob');
  if (ctx.query.did !== account.did) throw invalidRequest('did must be the DID of the token\'s issuer');
  if (!ctx.query.name) throw invalidRequest('Params must have the property "name"');
  const body = ctx.body;
  if (!isRawBody(body) || body.size === 0) throw invalidRequest('The request has no video');
  if (body.size > ctx.state.settings.bluesky.maxVideoBytes) throw xrpcError(413, 'PayloadTooLarge', 'request entity too large');
  if (!account.emailConfirmed) throw new PlatformError(400, { jobStatus: { did: '', error: 'unconfirmed_email', jobId: '', state: '' } });
  const allowed = limits(ctx, account);
  if (!allowed.canUpload || body.size > allowed.remainingDailyBytes) throw xrpcError(400, 'InvalidRequest', allowed.message ?? 'You have reached your daily upload limit.');
  const now = ctx.state.clock.now();
  const video = sniff(body.head)?.kind === 'video';
  const cid = blobCid(body.sha256);
  const earlier = [...ctx.state.bluesky.videoJobs.values()].find((j) => j.did === account.did && j.cid === cid && j.readyAt <= now);
  if (video && earlier) {
    const again: VideoJob = { ...earlier, jobId: ctx.state.ids.opaque('bluesky-video-job', 20, 'base36'), createdAt: now, readyAt: now, size: 0, alreadyExists: true };
    ctx.state.bluesky.videoJobs.set(again.jobId, again);
    throw new PlatformError(409, { did: account.did, error: 'already_exists', jobId: again.jobId, message: 'Video already processed', state: 'JOB_STATE_COMPLETED' });
  }
  const job: VideoJob = {
    jobId: ctx.state.ids.opaque('bluesky-video-job', 20, 'base36'),
    did: account.did,
    cid: video ? cid : null,
    mimeType: 'video/mp4',
    size: body.size,
    createdAt: now,
    readyAt: now + ctx.state.settings.processing.blueskyVideoMs,
  };
  if (video) keepBlob(ctx.state, account.did, body.sha256, 'video/mp4', body.size);
  ctx.state.bluesky.videoJobs.set(job.jobId, job);
  return { jobId: job.jobId, did: job.did, state: 'JOB_STATE_CREATED' };
}

/** GET app.bsky.video.getJobStatus?jobId (no auth: the job id is the secret). */
export function getJobStatus(ctx: RouteContext): unknown {
  const jobId = ctx.query.jobId;
  if (!jobId) throw invalidRequest('Params must have the property "jobId"');
  const job = ctx.state.bluesky.videoJobs.get(jobId);
  if (!job) throw xrpcError(404, 'NotFound', 'Job not found');
  const now = ctx.state.clock.now();
  const base = { jobId: job.jobId, did: job.did };
  if (now < job.readyAt) {
    const total = Math.max(1, job.readyAt - job.createdAt);
    return { jobStatus: { ...base, state: 'JOB_STATE_ENCODING', progress: Math.min(99, Math.floor(((now - job.createdAt) / total) * 100)) } };
  }
  const blob = job.cid ? ctx.state.bluesky.blobs.get(job.cid) : undefined;
  if (!blob) return { jobStatus: { ...base, state: 'JOB_STATE_FAILED', error: `video processing error for job: ${job.jobId}`, message: 'Failed to process video' } };
  const already = job.alreadyExists ? { error: 'already_exists', message: 'Video already processed' } : {};
  return { jobStatus: { ...base, state: 'JOB_STATE_COMPLETED', progress: 100, blob: blobRef(blob), ...already } };
}
