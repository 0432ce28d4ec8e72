// GET /v2/user/info/ (Login Kit, needs `fields`, §12) and POST
// /v2/post/publish/creator_info/query/ (§5.2): who the creator is and what they may post.
import type { TikTokCreator } from './people.ts';
import type { RouteContext } from '../core/router.ts';
import { tiktokAuth, requireScope } from './auth.ts';
import { invalidParams, ok, tiktokError } from './envelope.ts';

/** Each user field and the scope it needs. */
const USER_FIELDS: Record<string, { scope: string; value: (c: TikTokCreator) => unknown }> = {
  open_id: { scope: 'user.info.basic', value: (c) => c.openId },
  union_id: { scope: 'user.info.basic', value: (c) => c.unionId },
  avatar_url: { scope: 'user.info.basic', value: (c) => c.avatarUrl },
  avatar_url_100: { scope: 'user.info.basic', value: (c) => c.avatarUrl },
  avatar_large_url: { scope: 'user.info.basic', value: (c) => c.avatarUrl },
  display_name: { scope: 'user.info.basic', value: (c) => c.displayName },
  bio_description: { scope: 'user.info.profile', value: (c) => c.bio },
  profile_deep_link: { scope: 'user.info.profile', value: (c) => `https://www.tiktok.com/@${c.username}` },
  is_verified: { scope: 'user.info.profile', value: (c) => c.isVerified },
  username: { scope: 'user.info.profile', value: (c) => c.username },
  follower_count: { scope: 'user.info.stats', value: (c) => c.followerCount },
  following_count: { scope: 'user.info.stats', value: (c) => c.followingCount },
  likes_count: { scope: 'user.info.stats', value: (c) => c.likesCount },
  video_count: { scope: 'user.info.stats', value: (c) => c.videoCount },
};

export function userInfo(ctx: RouteContext): unknown {
  const { token, creator } = tiktokAuth(ctx);
  const fields = (ctx.query.fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  if (!fields.length) throw invalidParams('fields is required');
  const user: Record<string, unknown> = {};
  for (const name of fields) {
    const field = USER_FIELDS[name];
    if (!field) throw invalidParams(`Invalid field: ${name}`);
    requireScope(token, field.scope);
    user[name] = field.value(creator);
  }
  return ok({ user });
}

export function creatorInfo(ctx: RouteContext): unknown {
  const { token, creator } = tiktokAuth(ctx);
  requireScope(token, 'video.publish');
  if (creator.postingBlocked) throw tiktokError(creator.postingBlocked, 'The creator cannot make more posts at this time.');
  return ok({
    creator_avatar_url: creator.avatarUrl,
    creator_username: creator.username,
    creator_nickname: creator.displayName,
    privacy_level_options: creator.privacyLevelOptions,
    comment_disabled: creator.commentDisabled,
    duet_disabled: creator.duetDisabled,
    stitch_disabled: creator.stitchDisabled,
    max_video_post_duration_sec: creator.maxVideoPostDurationSec,
  });
}
