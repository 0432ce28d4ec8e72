// facebook Pages' platformSpecificData (contract table "facebook (Pages)"): the keys a client
// sends (FacebookData, also the OpenAPI description), the options validation keeps for the
// publisher (FacebookOptions, stored per target), and the rules checked only when the post goes
// live. validate.ts beside it applies them and names the field in a 400.
import { Type, type Static } from 'typebox';

export const FACEBOOK_CONTENT_TYPES = ['feed', 'reel', 'story'] as const;
export const FACEBOOK_MEDIA_TYPES = ['IMAGE', 'VIDEO'] as const;
export const FACEBOOK_MESSAGE_MAX = 63_206;
export type FacebookContentType = (typeof FACEBOOK_CONTENT_TYPES)[number];

const mediaUrl = { format: 'uri', maxLength: 2000 };

export const FacebookData = Type.Object(
  {
    contentType: Type.Optional(Type.Enum(FACEBOOK_CONTENT_TYPES, { type: 'string', description: 'feed (the default), reel or story.' })),
    mediaUrl: Type.Optional(Type.String({ ...mediaUrl, description: 'One photo or video (https). A reel or a story needs one when it goes live.' })),
    mediaUrls: Type.Optional(
      Type.Array(Type.String({ format: 'uri' }), { minItems: 1, maxItems: 10, description: 'Instead of mediaUrl: 2 to 10 photos make a multi-photo feed post (no videos).' }),
    ),
    mediaType: Type.Optional(Type.Enum(FACEBOOK_MEDIA_TYPES, { type: 'string', description: 'IMAGE or VIDEO; guessed from the URL when left out.' })),
    link: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'An https link; only for text posts without media.' })),
    title: Type.Optional(Type.String({ maxLength: 255, description: 'Videos and reels only.' })),
    firstComment: Type.Optional(Type.String({ minLength: 1, maxLength: 8000, description: 'Posted as a comment after publishing; not on stories or drafts.' })),
    draft: Type.Optional(Type.Boolean({ description: 'true creates an unpublished Page post (text, link or multi-photo only).' })),
  },
  {
    title: 'FacebookData',
    description: `platformSpecificData of a facebook Page target. The content is the message (at most ${FACEBOOK_MESSAGE_MAX} characters; stories have none). A feed post needs content, media or a link when it goes live.`,
    additionalProperties: true,
  },
);

/** What the facebook publisher reads: the content type, the media as a list with their type. */
export const FacebookOptions = Type.Object({
  title: Type.Optional(Type.String()),
  draft: Type.Optional(Type.Boolean()),
  firstComment: Type.Optional(Type.String()),
  contentType: Type.Enum(FACEBOOK_CONTENT_TYPES, { type: 'string' }),
  link: Type.Optional(Type.String()),
  mediaUrls: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
  mediaType: Type.Optional(Type.Enum(FACEBOOK_MEDIA_TYPES, { type: 'string' })),
});
export type FacebookOptions = Static<typeof FacebookOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    facebook: FacebookOptions;
  }
}

/** Live-only: a reel or a story needs its media. */
export function facebookLiveMediaProblem(contentType: FacebookContentType, urls: readonly string[]): { key: 'mediaUrl'; problem: string } | null {
  return contentType !== 'feed' && urls.length === 0 ? { key: 'mediaUrl', problem: `required for a ${contentType}` } : null;
}

/** Live-only: a feed post is not empty (content, media or a link). */
export function facebookLiveFeedProblem(contentType: FacebookContentType, urls: readonly string[], link: string | undefined, content: string): { key: 'content'; content: true; problem: string } | null {
  return contentType === 'feed' && !urls.length && !link && !content.trim() ? { key: 'content', content: true, problem: 'a facebook feed post needs content, media or a link' } : null;
}
