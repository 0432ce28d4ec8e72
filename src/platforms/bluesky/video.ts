// Video through Bluesky's video service (bluesky.md §5): a service token from the PDS for each
// call (the upload's audience is the PDS itself, since the service writes the blob into the
// account's repository; the limits' is the video service), the daily limits read first, the
// bytes posted to uploadVideo, and the job polled until its blob is ready. The job id and then
// the blob are kept in the target's progress, so a retry never uploads the video twice.
import { PlatformError } from '../errors.ts';
import { obj, str, text, type Json } from '../json.ts';
import { blueskyBody, type Session, type Xrpc } from './xrpc.ts';

export const VIDEO_SERVICE = 'https://video.bsky.app';
const VIDEO_SERVICE_DID = 'did:web:video.bsky.app';
/** Service tokens last this long (the PDS allows up to an hour). */
const SERVICE_TOKEN_SECONDS = 30 * 60;

async function serviceToken(api: Xrpc, session: Session, aud: string, lxm: string, now: number): Promise<string> {
  const body = await api.call(session.pds, 'com.atproto.server.getServiceAuth', { query: { aud, lxm, exp: Math.floor(now / 1000) + SERVICE_TOKEN_SECONDS }, bearer: session.token, now });
  const token = str(body.token);
  if (!token) throw new PlatformError('transient', 'Bluesky answered getServiceAuth without a token', { platform: 'bluesky' });
  return token;
}

/** Uploads the video and answers its job id (after checking the account may upload it today). */
export async function startVideo(api: Xrpc, session: Session, bytes: Uint8Array, name: string, now: number): Promise<string> {
  const limitsToken = await serviceToken(api, session, VIDEO_SERVICE_DID, 'app.bsky.video.getUploadLimits', now);
  const limits = await api.call(VIDEO_SERVICE, 'app.bsky.video.getUploadLimits', { bearer: limitsToken, now });
  if (limits.canUpload === false) throw new PlatformError('invalid', `Bluesky does not take a video from this account now: ${text(limits.message) || 'its daily video limit is reached'}`, { platform: 'bluesky', code: 'video-limit' });
  const remaining = typeof limits.remainingDailyBytes === 'number' ? limits.remainingDailyBytes : null;
  if (remaining !== null && bytes.length > remaining) throw new PlatformError('invalid', `the video has ${bytes.length} bytes and the account may upload ${remaining} more today`, { platform: 'bluesky', code: 'video-limit' });
  const host = new URL(session.pds).host;
  const uploadToken = await serviceToken(api, session, `did:web:${host}`, 'com.atproto.repo.uploadBlob', now);
  const response = await api.send(VIDEO_SERVICE, 'app.bsky.video.uploadVideo', { method: 'POST', query: { did: session.did, name }, body: bytes, headers: { 'content-type': 'video/mp4' }, bearer: uploadToken, timeoutMs: 600_000 });
  // The same video again: the service names a job that holds the blob it made before (an error body).
  const answer = obj(response.body);
  const earlier = answer.error === 'already_exists' ? str(answer.jobId) : null;
  if (earlier) return earlier;
  const jobId = str(blueskyBody(response, now).jobId);
  if (!jobId) throw new PlatformError('transient', 'Bluesky answered the video upload without a job id', { platform: 'bluesky' });
  return jobId;
}

export type JobState = { kind: 'done'; blob: Json } | { kind: 'failed'; message: string } | { kind: 'processing' };

export async function videoJob(api: Xrpc, jobId: string, now: number): Promise<JobState> {
  const status = obj((await api.call(VIDEO_SERVICE, 'app.bsky.video.getJobStatus', { query: { jobId }, now })).jobStatus);
  const state = text(status.state);
  if (state === 'JOB_STATE_COMPLETED' && str(obj(obj(status.blob).ref).$link)) return { kind: 'done', blob: obj(status.blob) };
  if (state === 'JOB_STATE_FAILED') return { kind: 'failed', message: [text(status.error), text(status.message)].filter(Boolean).join(': ') || 'the video could not be processed' };
  return { kind: 'processing' };
}
