// `post.deliver`: one step of one target. A pending target starts a new attempt (counted); a
// target already `publishing` continues its attempt (a processing check, or resuming after the
// worker running it died) from the progress its adapter saved. The adapter's answer, or its
// PlatformError, is recorded by recordOutcome(). Anything else (the database failing) is thrown
// to the queue, which runs this job again: the target is still `publishing` with the same
// dueAt, so the rerun continues the same attempt.
import type { AppDeps } from '../../../deps.ts';
import { targetError } from '../../../http/errors.ts';
import { defineJob } from '../../../jobs/catalog.ts';
import { PlatformError } from '../../../platforms/errors.ts';
import { coveredByPremark, isFresh, uncountedInterruption } from '../../../platforms/create-once.ts';
import { publishTarget } from '../../../platforms/target-options.ts';
import type { PublishProgress } from '../../../platforms/types.ts';
import { isPostPlatform, parseStoredOptions } from '../validate/index.ts';
import { postDeliver } from './kinds.ts';
import { mediaChecker, type MediaChecker } from './media-check.ts';
import { deliveryStoreOf } from './delivery-store.ts';
import { recordOutcome, type StepOutcome } from './outcome.ts';
import { settleIfOver } from './settle.ts';
import { LEASE_LOST, whileHeld, type Lease } from './lease-fence.ts';
import { targetOutcome } from '../../../metrics/outcomes.ts';
import { markNeedsReconnect } from '../../accounts/disconnect.ts';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'config' | 'platforms' | 'metrics'>;

/** A platform may finish a request a little after our client gave up on it. */
const IN_FLIGHT_MARGIN_MS = 5_000;

export function postDeliverJob(deps: Deps, checkMedia: MediaChecker = mediaChecker({ allowPrivate: deps.config.allowPrivateUrls })) {
  const { store, clock, sealer } = deps;
  return defineJob(postDeliver, {
    timeoutMs: 120_000,
    async run({ targetId, dueAt }, { log, jobId, attempt: jobAttempt }) {
      const db = store.db;
      const startedAt = clock.now();
      const lease: Lease = { jobId, attempt: jobAttempt };
      const started = await deliveryStoreOf(store).start(store, targetId, dueAt, startedAt, lease);
      if (!started) return; // gone, settled, stale, or another run's
      if ('unsettled' in started) return settleIfOver(store, startedAt, started.unsettled.organization_id, started.unsettled.post_id);
      const { row } = started;
      let attempts = row.attempts + (started.claimed ? 1 : 0);
      const saved = JSON.parse(row.progress) as PublishProgress;
      if (!started.claimed && uncountedInterruption(saved)) {
        // The run before this one died in the middle of a platform call (a crash, a lost lease):
        // the call may have gone out, so this run is an attempt of its own, and it reconciles
        // with the platform before sending anything again (create-once.ts).
        row.progress = JSON.stringify({ ...saved, interruptionCounted: true });
        await db
          .updateTable('post_targets')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), progress: row.progress, updated_at: startedAt }))
          .where('id', '=', targetId)
          .where('status', '=', 'publishing')
          .execute();
        attempts += 1;
        log.warn({ targetId, attempts }, 'resuming a post target whose last platform call was interrupted');
      }

      // A run its worker gave up (lease lost or not renewed in time) goes on in the background
      // until it ends. Its saves are fenced by the job's lease: once the job was reaped or taken
      // by another run, a save fails and this run stops, so it sends nothing more (every call
      // that creates something is preceded by a saved marker, create-once.ts), and a marker it
      // saved is one the next run finds.
      // The claim stored the marker of the first call: the save of that marker alone is done.
      let premarkedAt = started.premarkedAt;
      const saveProgress = async (progress: string) => {
        const saved = await db.updateTable('post_targets').set({ progress, updated_at: clock.now() }).where('id', '=', targetId).where(whileHeld(store, lease)).executeTakeFirst();
        if (saved.numUpdatedRows === 0n) throw new Error(`${LEASE_LOST}; nothing more is saved or sent`);
      };
      const outcome = await attempt(row, async (progress) => {
        const premarked = premarkedAt !== null && coveredByPremark(progress, premarkedAt, clock.now());
        premarkedAt = null;
        if (!premarked) await saveProgress(JSON.stringify(progress));
      }, (platformPostId) => isTaken(targetId, row.accountId, platformPostId));
      // Nothing was saved, so no call that needed the claim's marker was made (each is preceded
      // by a save): the attempt ended before its first call (a refusal of ours, a media check).
      // The marker goes, or publishing the post again would wait to reconcile a call never made.
      if (premarkedAt !== null) await saveProgress(row.progress);
      if (outcome.kind === 'failed') log.info({ targetId, attempts, error: outcome.message, retryable: outcome.retryable }, 'post target delivery failed');
      const now = clock.now();
      // Fenced like the saves: a run that lost the job records nothing (the next run finds the
      // saved progress, markers included, and goes on from there).
      const status = await recordOutcome(store, now, row.organization_id, { ...row, attempts }, outcome, lease, started.nextWaiting);
      deps.metrics?.postTarget(row.platform, targetOutcome(status));
    },
  });

  type Row = { platform: string; content: string; options: string; progress: string; accountId: string | null; accountStatus: string | null; platform_user_id: string | null; username: string | null; access_token_enc: string | null; metadata: string | null };

  /** Whether another target of the account already holds this platform post id. */
  async function isTaken(targetId: string, accountId: string | null, platformPostId: string): Promise<boolean> {
    if (!accountId) return false;
    const row = await store.db.selectFrom('post_targets').select('id').where('account_id', '=', accountId).where('platform_post_id', '=', platformPostId).where('id', '!=', targetId).executeTakeFirst();
    return row !== undefined;
  }

  async function attempt(row: Row, save: (progress: PublishProgress) => Promise<void>, taken: (platformPostId: string) => Promise<boolean>): Promise<StepOutcome> {
    const fail = (message: string): StepOutcome => ({ kind: 'failed', message, retryable: false });
    if (!isPostPlatform(row.platform) || !deps.platforms.adapters[row.platform].publisher) return fail(`publishing to ${row.platform} is not supported by this service yet`);
    if (!row.accountId) return fail('the account was removed');
    if (row.accountStatus === 'needs_reconnect' || !row.access_token_enc) return fail(targetError('reconnect_required', 'the account must be reconnected'));
    // The options as validated when the post was made, typed for the platform's publisher.
    const target = parseStoredOptions(row.platform, row.options);
    if (!target) return fail(`the stored ${row.platform} options of this target no longer have the shape this version reads; edit the post and publish it again`);
    const { options } = target;
    let progress = JSON.parse(row.progress) as PublishProgress;
    // Media checks (media-check.ts) before the first platform call only: no step saved yet.
    if (isFresh(progress)) {
      const media = await checkMedia(row.platform, options);
      if (!media.ok) return fail(media.message);
      if (media.kinds.length) progress = { ...progress, mediaKinds: media.kinds };
    }
    const inFlightMs = deps.config.platformTimeoutMs + IN_FLIGHT_MARGIN_MS;
    try {
      const publishing = publishTarget(deps.platforms.adapters, target, {
        account: { id: row.accountId, platformUserId: row.platform_user_id ?? '', username: row.username, accessToken: sealer.open(row.access_token_enc), metadata: JSON.parse(row.metadata ?? '{}') as Record<string, unknown> },
        content: row.content,
        progress,
        save,
        now: () => clock.now(),
        inFlightMs,
        isTaken: taken,
      });
      if (!publishing) return fail(`publishing to ${row.platform} is not supported by this service yet`);
      const result = await publishing;
      return result.status === 'published' ? { kind: 'published', platformPostId: result.platformPostId, url: result.url } : { kind: 'processing', checkAfterMs: result.checkAfterMs };
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      // The platform says the token is dead: the account needs reconnecting (and says so with
      // account.disconnected), so its other targets fail at once instead of calling again.
      if (error.kind === 'auth') await markNeedsReconnect({ store, clock }, row.accountId, 'token_invalid', error.message);
      const message = error.kind === 'auth' ? targetError('reconnect_required', error.message) : error.kind === 'permission' ? targetError('missing_permission', error.message) : error.message;
      return { kind: 'failed', message, retryable: error.retryable, retryAfterMs: error.details.retryAfterMs };
    }
  }
}
