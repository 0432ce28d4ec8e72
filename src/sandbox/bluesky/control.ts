// Control-API routes of the bluesky module (`/_sandbox/bluesky/…`, JSON). People acting on posts
// (postId is an at:// URI; `from` a handle or DID, default the first other person):
// `POST replies {postId, text, from?}`, `POST mentions {text, from?, mention?}` (mention: the
// account named, default sandbox.bsky.social), `POST quotes {postId, text, from?}`,
// `POST likes {postId, from?}`, `POST reposts {postId, from?}`, `POST follows {actor, from?}`.
// Counts for analytics: `POST metrics {postId, likes?, reposts?, quotes?, replies?}` (added to
// the records'). Accounts: `POST account {actor, takenDown?, emailConfirmed?, followersCount?,
// followsCount?, displayName?}`; `POST app-passwords/revoke {actor?, name?}` (default: every app
// password of sandbox.bsky.social; their sessions end). Inspection: `GET records?did&collection`,
// `GET blobs`.
import type { FastifyInstance } from 'fastify';
import { ControlError, obj } from '../core/control.ts';
import type { SandboxState } from '../core/state.ts';
import { personEngages, personFollows, personMentions, personQuotes, personReplies } from './activity.ts';
import { findAccount, type BlueskyAccount } from './people.ts';
import { revokeAppPassword } from './sessions.ts';
import type { ExtraCounts, RepoRecord } from './store.ts';

type Json = Record<string, unknown>;

const text = (body: Json, key: string): string | undefined => (typeof body[key] === 'string' && body[key] ? body[key] : undefined);

function need(body: Json, key: string): string {
  const value = text(body, key);
  if (!value) throw new ControlError(`${key}: required`);
  return value;
}

function guard<T>(state: SandboxState, fn: () => T): T {
  try {
    const result = fn();
    state.changed();
    return result;
  } catch (error) {
    throw new ControlError(error instanceof Error ? error.message : String(error));
  }
}

const created = (record: RepoRecord) => ({ uri: record.uri, cid: record.cid, did: record.did, value: record.value });

function account(state: SandboxState, body: Json): BlueskyAccount {
  const actor = text(body, 'actor') ?? 'sandbox.bsky.social';
  const found = findAccount(state, actor);
  if (!found) throw new ControlError(`actor: no Bluesky account ${actor}`);
  return found;
}

const count = (value: unknown, key: string): number | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ControlError(`${key}: a whole number, 0 or more`);
  return value;
};

export function registerBlueskyControl(app: FastifyInstance, state: SandboxState): void {
  // `from`: a handle or DID, or an object naming one (`{handle}`, `{did}`, as X's `{username}`).
  const from = (body: Json) => text(body, 'from') ?? text(obj(body.from), 'handle') ?? text(obj(body.from), 'did') ?? text(obj(body.from), 'username');
  app.post('/_sandbox/bluesky/replies', (req) => {
    const body = obj(req.body);
    return created(guard(state, () => personReplies(state, { postId: need(body, 'postId'), text: need(body, 'text'), from: from(body) })));
  });
  app.post('/_sandbox/bluesky/mentions', (req) => {
    const body = obj(req.body);
    return created(guard(state, () => personMentions(state, { text: need(body, 'text'), from: from(body), mention: text(body, 'mention') })));
  });
  app.post('/_sandbox/bluesky/quotes', (req) => {
    const body = obj(req.body);
    return created(guard(state, () => personQuotes(state, { postId: need(body, 'postId'), text: need(body, 'text'), from: from(body) })));
  });
  app.post('/_sandbox/bluesky/likes', (req) => {
    const body = obj(req.body);
    return created(guard(state, () => personEngages(state, 'app.bsky.feed.like', { postId: need(body, 'postId'), from: from(body) })));
  });
  app.post('/_sandbox/bluesky/reposts', (req) => {
    const body = obj(req.body);
    return created(guard(state, () => personEngages(state, 'app.bsky.feed.repost', { postId: need(body, 'postId'), from: from(body) })));
  });
  app.post('/_sandbox/bluesky/follows', (req) => {
    const body = obj(req.body);
    return created(guard(state, () => personFollows(state, { actor: need(body, 'actor'), from: from(body) })));
  });
  app.post('/_sandbox/bluesky/metrics', (req) => {
    const body = obj(req.body);
    const postId = need(body, 'postId');
    if (!state.bluesky.records.has(postId)) throw new ControlError(`postId: no post ${postId}`);
    const extra: ExtraCounts = state.bluesky.extraCounts.get(postId) ?? { likes: 0, reposts: 0, quotes: 0, replies: 0 };
    for (const key of Object.keys(extra) as Array<keyof ExtraCounts>) extra[key] = count(body[key], key) ?? extra[key];
    state.bluesky.extraCounts.set(postId, extra);
    state.changed();
    return { postId, extra };
  });
  app.post('/_sandbox/bluesky/account', (req) => {
    const body = obj(req.body);
    const target = account(state, body);
    if (body.takenDown !== undefined) target.takenDown = body.takenDown === true;
    if (body.emailConfirmed !== undefined) target.emailConfirmed = body.emailConfirmed === true;
    target.followersCount = count(body.followersCount, 'followersCount') ?? target.followersCount;
    target.followsCount = count(body.followsCount, 'followsCount') ?? target.followsCount;
    target.displayName = text(body, 'displayName') ?? target.displayName;
    state.changed();
    return target;
  });
  app.post('/_sandbox/bluesky/app-passwords/revoke', (req) => {
    const body = obj(req.body);
    const target = account(state, body);
    const name = text(body, 'name');
    if (name && !target.appPasswords.some((p) => p.name === name)) throw new ControlError(`name: ${target.handle} has no app password ${name}`);
    const ended = revokeAppPassword(state, target, name);
    state.changed();
    return { did: target.did, sessionsEnded: ended, appPasswords: target.appPasswords.map((p) => ({ name: p.name, revoked: p.revoked })) };
  });
  app.get('/_sandbox/bluesky/records', (req) => {
    const query = obj(req.query);
    return {
      records: [...state.bluesky.records.values()].filter(
        (r) => (typeof query.did !== 'string' || r.did === query.did) && (typeof query.collection !== 'string' || r.collection === query.collection),
      ),
    };
  });
  app.get('/_sandbox/bluesky/blobs', () => ({ blobs: [...state.bluesky.blobs.values()] }));
}
