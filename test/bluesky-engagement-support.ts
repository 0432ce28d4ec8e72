// What the Bluesky comments, inbox and analytics suites share: an organization's Bluesky account
// connected through the service's page, a post published to it through POST /posts, and the
// sandbox's records read back through its control API.
import assert from 'node:assert/strict';
import { connectBluesky, control, newBlueskyPerson, type SandboxBlueskyAccount } from './bluesky-support.ts';
import { createPost, settled, type PostsApp } from './posts-support.ts';

export interface PublishedBluesky {
  accountId: string;
  person: SandboxBlueskyAccount;
  postId: string;
  /** The post's at:// URI. */
  uri: string;
}

/** A new sandbox person connected to the organization. */
export async function connectedPerson(t: PostsApp, key: string): Promise<{ accountId: string; person: SandboxBlueskyAccount }> {
  const person = newBlueskyPerson(t.sandbox);
  return { accountId: await connectBluesky(t, key, person), person };
}

/** A post published now to the account; its ids. */
export async function publishTo(t: PostsApp, key: string, accountId: string, content: string): Promise<{ postId: string; uri: string }> {
  const res = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId }] });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const post = await settled(t, key, res.body.post.id);
  assert.equal(post.status, 'published', JSON.stringify(post));
  const uri = post.targets[0]?.platformPostId ?? '';
  assert.match(uri, /^at:\/\/did:plc:[a-z2-7]+\/app\.bsky\.feed\.post\/[a-z2-7]{13}$/);
  return { postId: post.id, uri };
}

/** A connected account with one published post. */
export async function publishedBluesky(t: PostsApp, key: string, content = 'Fresh bread at nine'): Promise<PublishedBluesky> {
  const { accountId, person } = await connectedPerson(t, key);
  return { accountId, person, ...(await publishTo(t, key, accountId, content)) };
}

export interface SandboxRecord {
  uri: string;
  cid: string;
  did: string;
  value: Record<string, unknown> & { reply?: { root: { uri: string; cid: string }; parent: { uri: string; cid: string } }; subject?: { uri: string; cid: string }; hiddenReplies?: string[] };
}

/** The records of one repository's collection as the sandbox holds them. */
export async function recordsOf(t: PostsApp, did: string, collection: string): Promise<SandboxRecord[]> {
  const res = await fetch(`${t.url}/sandbox/_sandbox/bluesky/records?${new URLSearchParams({ did, collection }).toString()}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { records: SandboxRecord[] }).records;
}

/** A person's reply through the control API; its at:// URI. */
export async function personReplies(t: PostsApp, postId: string, text: string, from = 'friend.bsky.social'): Promise<string> {
  return String((await control(t, 'replies', { postId, text, from })).uri);
}
