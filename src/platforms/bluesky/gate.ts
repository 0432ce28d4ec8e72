// Thread gates (bluesky.md §6): a record of app.bsky.feed.threadgate under the post's own key,
// naming the post and who may reply (`allow`: [] is nobody; no gate is everyone).
import type { Json } from '../json.ts';

export const gateRecord = (postUri: string, allow: Json[], createdAt: string): Json => ({ $type: 'app.bsky.feed.threadgate', post: postUri, allow, createdAt });
