// youtube's platformSpecificData (DESIGN "More platforms", the youtube table): the keys a client
// sends (YouTubeData, also the OpenAPI description) and the options validation keeps for the
// publisher (YouTubeOptions). The post content is the video's description. validate.ts applies
// the rules and names the field in a 400.
import { Type, type Static } from 'typebox';

export const YOUTUBE_PRIVACY = ['public', 'unlisted', 'private'] as const;
export const YOUTUBE_LICENSES = ['youtube', 'creativeCommon'] as const;
export const YOUTUBE_DESCRIPTION_BYTES = 5000;
export const YOUTUBE_TITLE_MAX = 100;
export const YOUTUBE_TAGS_MAX = 500;
export const YOUTUBE_COMMENT_MAX = 10_000;
export const YOUTUBE_DEFAULT_CATEGORY = '22';

export const YouTubeData = Type.Object(
  {
    mediaUrl: Type.Optional(Type.String({ format: 'uri', description: 'The video (MP4 or QuickTime), required for live posts. Vertical or square and at most 3 minutes: YouTube makes it a Short.' })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: YOUTUBE_TITLE_MAX, description: 'The video title (required for live posts); no < or >.' })),
    privacyStatus: Type.Optional(Type.Enum(YOUTUBE_PRIVACY, { type: 'string', description: 'public (default), unlisted or private. Videos of an API project YouTube has not audited stay private whatever this says.' })),
    madeForKids: Type.Optional(Type.Boolean({ description: "Required for live posts: whether the video is made for children (YouTube's selfDeclaredMadeForKids, a legal declaration the service does not guess)." })),
    publishAt: Type.Optional(Type.String({ format: 'date-time', description: 'A future time: the video is uploaded private and YouTube makes it public then. Only with privacyStatus public or left out.' })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: `Keywords; at most ${YOUTUBE_TAGS_MAX} characters in all (a tag with a space counts 2 more, and a comma between tags 1).` })),
    categoryId: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: `A video category id (digits); default ${YOUTUBE_DEFAULT_CATEGORY}, People & Blogs.` })),
    thumbnailUrl: Type.Optional(Type.String({ format: 'uri', description: 'A JPEG or PNG of at most 2 MB. If YouTube refuses it (the channel is not verified), the video stays published with a warning.' })),
    playlistId: Type.Optional(Type.String({ minLength: 1, description: 'A playlist of the channel the video is added to.' })),
    notifySubscribers: Type.Optional(Type.Boolean({ description: 'Tell subscribers about the new video (YouTube default: true).' })),
    containsSyntheticMedia: Type.Optional(Type.Boolean({ description: 'The video has realistic altered or synthetic content.' })),
    embeddable: Type.Optional(Type.Boolean({ description: 'The video may be embedded on other sites.' })),
    license: Type.Optional(Type.Enum(YOUTUBE_LICENSES, { type: 'string', description: 'youtube (default) or creativeCommon.' })),
    defaultLanguage: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'The language of the title and description (BCP-47).' })),
    firstComment: Type.Optional(Type.String({ minLength: 1, maxLength: YOUTUBE_COMMENT_MAX, description: 'A top-level comment by the channel under the video.' })),
  },
  {
    title: 'YouTubeData',
    description: `platformSpecificData of a youtube target: one video. The post content is its description (at most ${YOUTUBE_DESCRIPTION_BYTES} UTF-8 bytes, no < or >).`,
    additionalProperties: true,
  },
);

export const YouTubeOptions = Type.Object({
  mediaUrl: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  privacyStatus: Type.Optional(Type.Enum(YOUTUBE_PRIVACY, { type: 'string' })),
  madeForKids: Type.Optional(Type.Boolean()),
  publishAt: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Array(Type.String())),
  categoryId: Type.Optional(Type.String()),
  thumbnailUrl: Type.Optional(Type.String()),
  playlistId: Type.Optional(Type.String()),
  notifySubscribers: Type.Optional(Type.Boolean()),
  containsSyntheticMedia: Type.Optional(Type.Boolean()),
  embeddable: Type.Optional(Type.Boolean()),
  license: Type.Optional(Type.Enum(YOUTUBE_LICENSES, { type: 'string' })),
  defaultLanguage: Type.Optional(Type.String()),
  firstComment: Type.Optional(Type.String()),
});
export type YouTubeOptions = Static<typeof YouTubeOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    youtube: YouTubeOptions;
  }
}
