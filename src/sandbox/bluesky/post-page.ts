// The Bluesky post a link names (bsky.app/profile/{handle or DID}/post/{rkey}), as the sandbox shows
// it (core/post-page.ts): its text, its images or video, its link card; a reply, a quote or
// self-labels are noted. A deleted post, or a handle that is not the post's author, is not found.
import type { Host, RouteContext } from '../core/router.ts';
import { sendPostPage, type PostView } from '../core/post-page.ts';
import { findAccount } from './people.ts';
import { atUri } from './records.ts';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

function media(embed: Json): PostView['media'] {
  if (embed.$type === 'app.bsky.embed.images' && Array.isArray(embed.images)) return embed.images.map(() => ({ kind: 'image' as const, url: null }));
  if (embed.$type === 'app.bsky.embed.video') return [{ kind: 'video', url: null }];
  if (embed.$type === 'app.bsky.embed.recordWithMedia') return media(asObject(embed.media));
  return [];
}

function show(ctx: RouteContext): unknown {
  const account = findAccount(ctx.state, ctx.params.actor ?? '');
  const record = account ? ctx.state.bluesky.records.get(atUri(account.did, 'app.bsky.feed.post', ctx.params.rkey ?? '')) : undefined;
  if (!account || !record) return sendPostPage(ctx, null);
  const value = record.value;
  const embed = asObject(value.embed);
  const external = asObject(embed.external ?? asObject(embed.media).external);
  const quoted = asObject(embed.$type === 'app.bsky.embed.recordWithMedia' ? asObject(embed.record).record : embed.record);
  const labels = Array.isArray(asObject(value.labels).values) ? (asObject(value.labels).values as unknown[]).map((l) => String(asObject(l).val)) : [];
  return sendPostPage(ctx, {
    platform: 'Bluesky',
    author: `@${account.handle}`,
    text: typeof value.text === 'string' ? value.text : null,
    createdAt: record.indexedAt,
    media: media(embed),
    link: typeof external.uri === 'string' ? external.uri : null,
    notes: [
      ...(value.reply ? [`A reply to ${String(asObject(asObject(value.reply).parent).uri)}`] : []),
      ...(typeof quoted.uri === 'string' ? [`Quotes ${quoted.uri}`] : []),
      ...(labels.length ? [`Labels: ${labels.join(', ')}`] : []),
    ],
  });
}

export function registerBlueskyPostPages(host: Host): void {
  host.get('/profile/:actor/post/:rkey', show);
}
