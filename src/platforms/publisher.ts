// The publishing capability of a platform adapter. An adapter is pure platform knowledge: it
// makes the platform's calls for one post target and throws PlatformError (kinds from its error
// table); it never touches the database, sleeps or retries. The delivery job owns all of that.
//
// Two-step flows (containers, publish ids) are resumable: the adapter hands each step's platform
// id to `save` before making the next call, and reads `progress` first, so an attempt that
// resumes after a crash or a retry continues from the last stored step instead of posting twice.
// Single-step calls that create something go through createOnce() (create-once.ts), which
// marks them before they are made and reconciles an interrupted one with the platform.
// Waiting for the platform's processing is not done here either: the adapter answers
// `processing` and is called again (with the saved progress) after `checkAfterMs`.

/** The connected account a target publishes as, with its token unsealed. */
export interface PublishAccount {
  id: string;
  platformUserId: string;
  username: string | null;
  accessToken: string;
  /** Platform details kept on the account (page ids, business ids …). */
  metadata: Record<string, unknown>;
}

/** Step ids and counters an adapter keeps between calls; JSON-serialisable. */
export type PublishProgress = Record<string, unknown>;

export interface PublishRequest {
  account: PublishAccount;
  /** The post's content (the caption, text or title source, as the platform uses it). */
  content: string;
  /** The target's validated platformSpecificData (only keys that apply to it). */
  options: Record<string, unknown>;
  /** What earlier calls stored; `{}` on a fresh attempt. */
  progress: PublishProgress;
  /** Stores progress durably; resolves once it is committed. Call before the next step. */
  save: (progress: PublishProgress) => Promise<void>;
  /** The delivery's clock (ms); adapters never read the system clock. */
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

export interface Publisher {
  platform: string;
  publish(request: PublishRequest): Promise<PublishOutcome>;
}

/** Delay before the next processing check: 1 s, 2 s, 4 s … up to a minute. */
export function processingDelay(checks: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, checks));
}

/** A string value of a parsed platform answer or option ('' for anything else). */
export const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** Reads a string kept in progress. */
export function progressString(progress: PublishProgress, key: string): string | null {
  const value = progress[key];
  return typeof value === 'string' ? value : null;
}

export function progressNumber(progress: PublishProgress, key: string): number {
  const value = progress[key];
  return typeof value === 'number' ? value : 0;
}
