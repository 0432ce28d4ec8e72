// instagram's platformSpecificData (contract table "instagram"): the keys a client sends
// (InstagramData, also the OpenAPI description), the options validation keeps for the publisher
// (InstagramOptions, stored per target: both spellings of the type become one `kind`), and the
// rules checked only when the post goes live. validate.ts beside it applies them
// and names the field in a 400.
import { Type, type Static } from 'typebox';

/** Both spellings of the type: the Graph API's and the contract's lower-case words. */
export const INSTAGRAM_TYPES = ['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL', 'feed', 'reel', 'story', 'carousel'] as const;
export const INSTAGRAM_KINDS = ['IMAGE', 'REELS', 'STORIES', 'CAROUSEL'] as const;
export type InstagramKind = (typeof INSTAGRAM_KINDS)[number];
export const INSTAGRAM_GRADUATION_STRATEGIES = ['MANUAL', 'SS_PERFORMANCE'] as const;
export type InstagramGraduationStrategy = (typeof INSTAGRAM_GRADUATION_STRATEGIES)[number];
export const INSTAGRAM_CAPTION_MAX = 2200;
export const INSTAGRAM_HASHTAGS_MAX = 30;
export const INSTAGRAM_CAROUSEL = { min: 2, max: 10 } as const;

const USERNAME = '^[A-Za-z0-9._]{1,30}$';
const typeDescription = 'IMAGE, VIDEO (published as a Reel), REELS, STORIES or CAROUSEL, or feed, reel, story, carousel; mediaType and contentType must agree. Guessed from the media when left out.';

export const InstagramData = Type.Object(
  {
    mediaUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'One image (JPEG) or video, public https. Required when the post goes live.' })),
    mediaUrls: Type.Optional(Type.Array(Type.String({ format: 'uri' }), { minItems: 1, maxItems: INSTAGRAM_CAROUSEL.max, description: 'Instead of mediaUrl: 2 to 10 items make a carousel.' })),
    mediaType: Type.Optional(Type.Enum(INSTAGRAM_TYPES, { type: 'string', description: typeDescription })),
    contentType: Type.Optional(Type.Enum(INSTAGRAM_TYPES, { type: 'string', description: typeDescription })),
    firstComment: Type.Optional(Type.String({ minLength: 1, maxLength: 2200, description: 'Posted as a comment after publishing; not on stories.' })),
    collaborators: Type.Optional(Type.Array(Type.String({ pattern: USERNAME }), { maxItems: 3, description: 'Up to 3 usernames; not on stories.' })),
    userTags: Type.Optional(
      Type.Array(
        Type.Object({
          username: Type.String({ pattern: USERNAME }),
          x: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Required on photos.' })),
          y: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Required on photos.' })),
          mediaIndex: Type.Optional(Type.Integer({ minimum: 0, description: 'The carousel item tagged (default 0).' })),
        }),
        { description: 'People tagged; photos need x and y, videos only the username.' },
      ),
    ),
    locationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^\\d+$', description: 'A location page id; not on stories.' })),
    altText: Type.Optional(Type.String({ maxLength: 1000, description: 'Images only.' })),
    altTexts: Type.Optional(
      Type.Array(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]), { description: 'Carousels: one per item (null for none).' }),
    ),
    shareToFeed: Type.Optional(Type.Boolean({ description: 'Reels only.' })),
    thumbOffset: Type.Optional(Type.Integer({ minimum: 0, description: 'Reels only: the cover frame, in milliseconds.' })),
    coverUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'Reels only: a cover image (https).' })),
    audioName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Reels only.' })),
    trialParams: Type.Optional(
      Type.Object({ graduationStrategy: Type.Enum(INSTAGRAM_GRADUATION_STRATEGIES, { type: 'string' }) }, { description: 'Reels only: a trial Reel, shown to non-followers first.' }),
    ),
    commentsEnabled: Type.Optional(Type.Boolean({ description: 'false turns comments off right after publishing.' })),
  },
  {
    title: 'InstagramData',
    description: `platformSpecificData of an instagram target. The content is the caption (at most ${INSTAGRAM_CAPTION_MAX} characters and ${INSTAGRAM_HASHTAGS_MAX} hashtags; stories have none).`,
    additionalProperties: true,
  },
);

const UserTag = Type.Object({
  username: Type.String(),
  x: Type.Optional(Type.Number()),
  y: Type.Optional(Type.Number()),
  mediaIndex: Type.Optional(Type.Integer()),
});

/** What the instagram publisher reads: one `kind`, the media as a list, and the keys that apply to it. */
export const InstagramOptions = Type.Object({
  firstComment: Type.Optional(Type.String()),
  collaborators: Type.Optional(Type.Array(Type.String())),
  locationId: Type.Optional(Type.String()),
  userTags: Type.Optional(Type.Array(UserTag)),
  altText: Type.Optional(Type.String()),
  altTexts: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Null()]))),
  shareToFeed: Type.Optional(Type.Boolean()),
  thumbOffset: Type.Optional(Type.Integer()),
  coverUrl: Type.Optional(Type.String()),
  audioName: Type.Optional(Type.String()),
  trialParams: Type.Optional(Type.Object({ graduationStrategy: Type.Enum(INSTAGRAM_GRADUATION_STRATEGIES, { type: 'string' }) })),
  commentsEnabled: Type.Optional(Type.Boolean()),
  kind: Type.Enum(INSTAGRAM_KINDS, { type: 'string' }),
  mediaUrls: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
});
export type InstagramOptions = Static<typeof InstagramOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    instagram: InstagramOptions;
  }
}
export type InstagramUserTag = Static<typeof UserTag>;

/** Live-only: the media (an image or a video), and a carousel's second item. */
export function instagramLiveProblem(kind: InstagramKind, urls: readonly string[]): { key: 'mediaUrl' | 'mediaUrls'; problem: string } | null {
  if (urls.length === 0) return { key: 'mediaUrl', problem: 'required: instagram posts need an image or a video' };
  if (kind === 'CAROUSEL' && urls.length < INSTAGRAM_CAROUSEL.min) return { key: 'mediaUrls', problem: `a carousel has ${INSTAGRAM_CAROUSEL.min} to ${INSTAGRAM_CAROUSEL.max} items` };
  return null;
}
