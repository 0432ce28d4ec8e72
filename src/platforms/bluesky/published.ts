// A live bluesky post (DESIGN "More platforms", Published posts): unpublish deletes every record
// the publisher made — the first comment and the thread items (newest first), the thread gate,
// then the post — from the keys in the target's progress (deleteRecord of a free key is fine);
// comments-settings writes the gate: `enabled: false` allows nobody, `true` puts back the
// post's replyControl (kept in progress with the gate), or removes the gate when it had none.
// No editor (ours): putRecord exists, but Bluesky shows no edits and quotes pin the old cid.
import { PlatformError } from '../errors.ts';
import { list, obj, str, type Json } from '../json.ts';
import type { AccountCredentials, CommentsSwitch, PostRemover, PublishProgress } from '../types.ts';
import { gateRecord } from './gate.ts';
import { sessionOf } from './connect.ts';
import { deleteRecord, parseAtUri, POST, putRecord, THREADGATE } from './repo.ts';
import type { Xrpc } from './xrpc.ts';

/** The key of one of the account's posts, from its at:// URI. */
function ownKey(account: AccountCredentials, postUri: string): string {
  const parts = parseAtUri(postUri);
  if (!parts || parts.collection !== POST || parts.repo !== account.platformUserId) throw new PlatformError('invalid', `${postUri} is not a post of this account`, { platform: 'bluesky' });
  return parts.rkey;
}

export function blueskyPostRemover(api: Xrpc): PostRemover {
  return {
    async unpublish(account, postUri, progress) {
      const session = sessionOf(account);
      const rootKey = ownKey(account, postUri);
      const others = list(progress?.units)
        .map((u) => str(obj(u).rkey))
        .filter((rkey): rkey is string => rkey !== null && rkey !== rootKey)
        .reverse();
      for (const rkey of others) await deleteRecord(api, session, POST, rkey);
      await deleteRecord(api, session, THREADGATE, rootKey);
      await deleteRecord(api, session, POST, rootKey);
    },
  };
}

/** The rules the post was published with (null: no gate, everyone may reply). */
const publishedRules = (progress: PublishProgress | undefined): Json[] | null => {
  const gate = obj(progress?.gate);
  return Array.isArray(gate.allow) ? (gate.allow as Json[]) : null;
};

/** The gate's createdAt: the one it was made with, else the post's (no clock is read here). */
const gateTime = (progress: PublishProgress | undefined): string => str(obj(progress?.gate).createdAt) ?? str(obj(list(progress?.units)[0]).createdAt) ?? new Date(0).toISOString();

export function blueskyCommentsSwitch(api: Xrpc): CommentsSwitch {
  return {
    async setComments(account, postUri, enabled, progress) {
      const session = sessionOf(account);
      const rkey = ownKey(account, postUri);
      const rules = enabled ? publishedRules(progress) : [];
      if (rules === null) {
        await deleteRecord(api, session, THREADGATE, rkey);
        return;
      }
      await putRecord(api, session, THREADGATE, rkey, gateRecord(postUri, rules, gateTime(progress)));
    },
  };
}
