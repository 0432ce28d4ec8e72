// tiktok's platformSpecificData (contract table "tiktok"; the names of the keys the contract
// leaves open are in docs/adr/0021-tiktok.md): the keys a client sends (TiktokData, also the OpenAPI
// description), the options validation keeps for the publisher (TiktokOptions, stored per
// target: a video post or a photo post, each with its own keys), and the rules checked only
// when the post goes live. validate.ts beside it applies them and names the field.
import { Type, type Static } from 'typebox';

export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export type TiktokPrivacyLevel = (typeof TIKTOK_PRIVACY_LEVELS)[number];
export const TIKTOK_MEDIA_TYPES = ['video', 'image'] as const;
export const TIKTOK_VIDEO_CAPTION_MAX = 2200;
export const TIKTOK_PHOTO_DESCRIPTION_MAX = 4000;

/** Keys of video posts only, and of photo posts only (skipped with a warning on the other). */
export const TIKTOK_VIDEO_ONLY = ['disableDuet', 'disableStitch', 'videoCoverTimestampMs', 'isAigc'] as const;
export const TIKTOK_PHOTO_ONLY = ['title', 'photoCoverIndex', 'autoAddMusic'] as const;

const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

export const TiktokData = Type.Object(
  {
    privacyLevel: Type.Optional(
      Type.Enum(TIKTOK_PRIVACY_LEVELS, { type: 'string', description: "Required when the post goes live; one of the creator's options (an unaudited app may only post SELF_ONLY)." }),
    ),
    mediaUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'The video (MP4, MOV or WebM) on a verified URL prefix, such as the publicUrl of uploaded media. Required when the post goes live.' })),
    mediaUrls: Type.Optional(Type.Array(Type.String({ format: 'uri' }), { minItems: 1, maxItems: 35, description: 'The photos of a photo post, on a verified URL prefix.' })),
    mediaType: Type.Optional(Type.Enum(TIKTOK_MEDIA_TYPES, { type: 'string', description: 'video (the default) or image (a photo post).' })),
    title: Type.Optional(Type.String({ maxLength: 90, description: 'Photo posts only (the content is the description); the video caption is the content.' })),
    disableComment: flag('Comments are off unless this is false.'),
    disableDuet: flag('Videos only; duets are off unless this is false.'),
    disableStitch: flag('Videos only; stitches are off unless this is false.'),
    brandContent: flag('A paid partnership; not with privacyLevel SELF_ONLY.'),
    brandOrganic: flag("Promotes the poster's own brand."),
    autoAddMusic: flag('Photo posts only: TikTok adds music.'),
    isAigc: flag('Videos only: the content is AI-generated.'),
    videoCoverTimestampMs: Type.Optional(Type.Integer({ minimum: 0, description: 'Videos only: the cover frame, in milliseconds.' })),
    photoCoverIndex: Type.Optional(Type.Integer({ minimum: 0, description: 'Photo posts only: the cover, an index into mediaUrls.' })),
  },
  {
    title: 'TiktokData',
    description: `platformSpecificData of a tiktok target. The content is the video caption (at most ${TIKTOK_VIDEO_CAPTION_MAX} characters) or the photo description (at most ${TIKTOK_PHOTO_DESCRIPTION_MAX}).`,
    additionalProperties: true,
  },
);

const Common = {
  disableComment: Type.Optional(Type.Boolean()),
  brandContent: Type.Optional(Type.Boolean()),
  brandOrganic: Type.Optional(Type.Boolean()),
  privacyLevel: Type.Optional(Type.Enum(TIKTOK_PRIVACY_LEVELS, { type: 'string' })),
  mediaUrls: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
};

/** What the tiktok publisher reads: a video post or a photo post (`mediaType`), the media as a list. */
export const TiktokOptions = Type.Union([
  Type.Object({
    ...Common,
    mediaType: Type.Literal('video'),
    disableDuet: Type.Optional(Type.Boolean()),
    disableStitch: Type.Optional(Type.Boolean()),
    isAigc: Type.Optional(Type.Boolean()),
    videoCoverTimestampMs: Type.Optional(Type.Integer()),
  }),
  Type.Object({
    ...Common,
    mediaType: Type.Literal('image'),
    autoAddMusic: Type.Optional(Type.Boolean()),
    title: Type.Optional(Type.String()),
    photoCoverIndex: Type.Optional(Type.Integer()),
  }),
]);
export type TiktokOptions = Static<typeof TiktokOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    tiktok: TiktokOptions;
  }
}

/** Live-only: a privacy level, and the media (a video URL, or the photos). */
export function tiktokLiveProblem(privacyLevel: TiktokPrivacyLevel | undefined, photo: boolean, urls: readonly string[]): { key: 'privacyLevel' | 'mediaUrl' | 'mediaUrls'; problem: string } | null {
  if (privacyLevel === undefined) return { key: 'privacyLevel', problem: 'required for live posts' };
  if (urls.length === 0) return { key: photo ? 'mediaUrls' : 'mediaUrl', problem: `required for live posts (a ${photo ? 'photo' : 'video'} URL)` };
  return null;
}
