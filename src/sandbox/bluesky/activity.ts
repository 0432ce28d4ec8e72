// What the sandbox's people do to an account's posts (the control API, control.ts): reply, post a
// mention (with its facet), quote, like, repost and follow, each as a record in the person's own
// repository, written through the same validation as the PDS's, so the reads and the derived
// notifications see them like any other record.
import type { SandboxState } from '../core/state.ts';
import { findAccount, type BlueskyAccount } from './people.ts';
import { nextTid, writeRecord } from './records.ts';
import type { RepoRecord } from './store.ts';

const POST = 'app.bsky.feed.post';

function person(state: SandboxState, from: string | undefined, not: string | null): BlueskyAccount {
  if (from) {
    const account = findAccount(state, from);
    if (!account) throw new Error(`from: no Bluesky account ${from}`);
    return account;
  }
  const other = [...state.people.blueskyAccounts.values()].find((a) => a.did !== not && a.handle !== 'sandbox.bsky.social');
  if (!other) throw new Error('from: the sandbox has no other Bluesky account');
  return other;
}

function post(state: SandboxState, uri: string): RepoRecord {
  const record = state.bluesky.records.get(uri);
  if (!record || record.collection !== POST) throw new Error(`postId: no post ${uri}`);
  return record;
}

const strongRef = (record: RepoRecord) => ({ uri: record.uri, cid: record.cid });

function write(state: SandboxState, author: BlueskyAccount, collection: string, value: Record<string, unknown>): RepoRecord {
  return writeRecord(state, author.did, collection, nextTid(state), { $type: collection, ...value, createdAt: new Date(state.clock.now()).toISOString() }, true).record;
}

/** A person replies to a post (the thread's root is the post's root, or the post). */
export function personReplies(state: SandboxState, input: { postId: string; text: string; from?: string | undefined }): RepoRecord {
  const parent = post(state, input.postId);
  const rootUri = (parent.value.reply as { root?: { uri?: string } } | undefined)?.root?.uri;
  const root = rootUri ? post(state, rootUri) : parent;
  const author = person(state, input.from, parent.did);
  return write(state, author, POST, { text: input.text, reply: { root: strongRef(root), parent: strongRef(parent) } });
}

/** A person posts text mentioning an account: `@handle` in the text (added at the end if absent) with its mention facet. */
export function personMentions(state: SandboxState, input: { text: string; from?: string | undefined; mention?: string | undefined }): RepoRecord {
  const mentioned = findAccount(state, input.mention ?? 'sandbox.bsky.social');
  if (!mentioned) throw new Error(`mention: no Bluesky account ${input.mention ?? 'sandbox.bsky.social'}`);
  const author = person(state, input.from, mentioned.did);
  const tag = `@${mentioned.handle}`;
  const text = input.text.includes(tag) ? input.text : `${input.text} ${tag}`;
  const byteStart = Buffer.byteLength(text.slice(0, text.indexOf(tag)), 'utf8');
  const facets = [{ index: { byteStart, byteEnd: byteStart + Buffer.byteLength(tag, 'utf8') }, features: [{ $type: 'app.bsky.richtext.facet#mention', did: mentioned.did }] }];
  return write(state, author, POST, { text, facets });
}

/** A person quotes a post. */
export function personQuotes(state: SandboxState, input: { postId: string; text: string; from?: string | undefined }): RepoRecord {
  const quoted = post(state, input.postId);
  const author = person(state, input.from, quoted.did);
  return write(state, author, POST, { text: input.text, embed: { $type: 'app.bsky.embed.record', record: strongRef(quoted) } });
}

/** A person likes or reposts a post. */
export function personEngages(state: SandboxState, collection: 'app.bsky.feed.like' | 'app.bsky.feed.repost', input: { postId: string; from?: string | undefined }): RepoRecord {
  const subject = post(state, input.postId);
  return write(state, person(state, input.from, subject.did), collection, { subject: strongRef(subject) });
}

/** A person follows an account. */
export function personFollows(state: SandboxState, input: { actor: string; from?: string | undefined }): RepoRecord {
  const followed = findAccount(state, input.actor);
  if (!followed) throw new Error(`actor: no Bluesky account ${input.actor}`);
  return write(state, person(state, input.from, followed.did), 'app.bsky.graph.follow', { subject: followed.did });
}
