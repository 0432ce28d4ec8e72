// The capabilities that publish and change posts: the publisher (one target at a time), and what
// can be done to a post once it is live (contract "Published posts"): edit its text, delete it
// from the platform, turn its comments on or off. Re-exported by types.ts.
//
// A publisher is pure platform knowledge: it makes the platform's calls for one post target and
// throws PlatformError (kinds from its platform's error table); it never touches the database,
// sleeps or retries. The delivery job owns all of that.
//
// Two-step flows (containers, publish ids) are resumable: the publisher hands each step's
// platform id to `save` before making the next call, and reads `progress` first, so an attempt
// that resumes after a crash or a retry continues from the last stored step instead of posting
// twice. Single-step calls that create something go through createOnce() (create-once.ts),
// which marks them before they are made and reconciles an interrupted one with the platform.
// Waiting for the platform's processing is not done here either: the publisher answers
// `processing` and is called again (with the saved progress) after `checkAfterMs`.
import type { AccountCredentials } from './types.ts';

/** The connected account a target publishes as, with its token unsealed. */
export interface PublishAccount {
  id: string;
  platformUserId: string;
  username: string | null;
  accessToken: string;
  /** Platform details kept on the account (page ids, business ids …). */
  metadata: Record<string, unknown>;
}

/** Step ids and counters a publisher keeps between calls; JSON-serialisable. */
export type PublishProgress = Record<string, unknown>;

/** `O`: the platform's options type (target-options.ts). */
export interface PublishRequest<O> {
  account: PublishAccount;
  /** The post's content (the caption, text or title source, as the platform uses it). */
  content: string;
  /** The target's validated platformSpecificData (only keys that apply to it), typed per platform. */
  options: O;
  /** What earlier calls stored; `{}` on a fresh attempt. */
  progress: PublishProgress;
  /** Stores progress durably; resolves once it is committed. Call before the next step. */
  save: (progress: PublishProgress) => Promise<void>;
  /** The delivery's clock (ms); publishers never read the system clock. */
  now: () => number;
  /** How long a platform call may still be running after it began (see create-once.ts). */
  inFlightMs: number;
  /**
   * Whether a platform post id is already another target's of this account, so reconciling an
   * interrupted call never adopts a post that belongs to someone else.
   */
  isTaken: (platformPostId: string) => Promise<boolean>;
}

export type PublishOutcome =
  | { status: 'published'; platformPostId: string | null; url: string | null }
  /** The platform is still processing; call publish again after this delay. */
  | { status: 'processing'; checkAfterMs: number };

export interface Publisher<O> {
  publish(request: PublishRequest<O>): Promise<PublishOutcome>;
  /**
   * What of a failed target's progress a publish-again keeps, besides the markers of calls whose
   * fate is unknown (always kept): the parts already live on the platform (a chain's first posts),
   * so that they are not made a second time. Without it, a failed target starts over.
   */
  keepOnRetry?(progress: PublishProgress): PublishProgress;
}

/** What an edit made when the platform gives the edited post a new id (X): the target takes it. */
export interface EditedPost {
  platformPostId: string;
}

export interface PostEditor {
  /** Replaces the text of the live post; a platform whose edits make a new post answers its id. */
  edit(account: AccountCredentials, platformPostId: string, content: string): Promise<void | EditedPost>;
}

export interface PostRemover {
  /**
   * Deletes the live post on the platform. `progress` is what the publisher stored for the target
   * (a chain's other ids: X thread items and first comment), for removers that delete those too.
   */
  unpublish(account: AccountCredentials, platformPostId: string, progress?: PublishProgress): Promise<void>;
}

export interface CommentsSwitch {
  /**
   * Allows or stops new comments on the live post. `progress`: what the publisher stored for the
   * target (bluesky reads the reply rules it published with, to put them back).
   */
  setComments(account: AccountCredentials, platformPostId: string, enabled: boolean, progress?: PublishProgress): Promise<void>;
}
