// threads' platformSpecificData (contract table "threads"): the keys a client sends
// (ThreadsData, also the OpenAPI description), the options validation keeps for the publisher
// (ThreadsOptions, stored per target: one post, or a chain of thread items, each with its media
// as a list, its type decided and one alt text per item), and the rules checked only when the
// post goes live. validate.ts beside it applies them and names the field in a 400.
import { Type, type Static } from 'typebox';

export const THREADS_MEDIA_TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'] as const;
export type ThreadsMediaType = (typeof THREADS_MEDIA_TYPES)[number];
export const THREADS_REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'] as const;
export const THREADS_TEXT_MAX = 500;
export const THREADS_CAROUSEL = { min: 2, max: 20 } as const;

const altText = Type.String({ maxLength: 1000 });

/** The media keys of a post and of each thread item. */
const media = {
  mediaUrl: Type.Optional(Type.String({ format: 'uri', description: 'One image or video (https).' })),
  mediaUrls: Type.Optional(Type.Array(Type.String({ format: 'uri' }), { maxItems: THREADS_CAROUSEL.max, description: 'Instead of mediaUrl: 2 to 20 items make a carousel.' })),
  mediaType: Type.Optional(Type.Enum(THREADS_MEDIA_TYPES, { type: 'string', description: 'TEXT, IMAGE, VIDEO or CAROUSEL; guessed from the media when left out. Media types need their media when the post goes live.' })),
  altText: Type.Optional(Type.String({ maxLength: 1000, description: 'The alt text of every item.' })),
  altTexts: Type.Optional(Type.Array(Type.Union([altText, Type.Null()]), { description: 'One per media item (null for none).' })),
};

export const ThreadsItem = Type.Object(
  {
    content: Type.String({ maxLength: THREADS_TEXT_MAX, description: 'The text of this reply; required for a text item when the post goes live.' }),
    ...media,
  },
  { description: 'One reply of the chain.' },
);

export const ThreadsData = Type.Object(
  {
    ...media,
    topicTag: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '^[^.&]*$', description: 'A topic, without . and &.' })),
    replyControl: Type.Optional(Type.Enum(THREADS_REPLY_CONTROLS, { type: 'string', description: 'Who may reply.' })),
    linkAttachment: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'An https link shown as a preview; text posts only.' })),
    firstComment: Type.Optional(Type.String({ minLength: 1, maxLength: THREADS_TEXT_MAX, description: 'Published as a reply.' })),
    threadItems: Type.Optional(
      Type.Array(ThreadsItem, { minItems: 1, maxItems: 20, description: 'A chain of replies published instead of the content and its media (whose keys are then skipped).' }),
    ),
  },
  {
    title: 'ThreadsData',
    description: `platformSpecificData of a threads target. The content is the text (at most ${THREADS_TEXT_MAX} characters; required for a text post when it goes live).`,
    additionalProperties: true,
  },
);

const Media = {
  mediaType: Type.Enum(THREADS_MEDIA_TYPES, { type: 'string' }),
  altTexts: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Null()]))),
};
const Shared = {
  topicTag: Type.Optional(Type.String()),
  replyControl: Type.Optional(Type.Enum(THREADS_REPLY_CONTROLS, { type: 'string' })),
  firstComment: Type.Optional(Type.String()),
};

/** One post of the chain as the publisher reads it: its media always as a list (maybe empty). */
export const ThreadsItemOptions = Type.Object({ content: Type.String(), mediaType: Media.mediaType, mediaUrls: Type.Array(Type.String()), altTexts: Media.altTexts });

/**
 * What the threads publisher reads: one post with its media (mediaUrls left out when there are
 * none), or a chain of `threadItems` replacing the content.
 */
export const ThreadsOptions = Type.Union([
  Type.Object({ ...Shared, threadItems: Type.Array(ThreadsItemOptions, { minItems: 1 }) }),
  Type.Object({ ...Shared, linkAttachment: Type.Optional(Type.String()), ...Media, mediaUrls: Type.Optional(Type.Array(Type.String(), { minItems: 1 })) }),
]);
export type ThreadsOptions = Static<typeof ThreadsOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    threads: ThreadsOptions;
  }
}
export type ThreadsItemOptions = Static<typeof ThreadsItemOptions>;

/** Live-only: a media type with its media, and a carousel's second item. */
export function threadsLiveMediaProblem(mediaType: ThreadsMediaType, urls: readonly string[]): { key: 'mediaUrls'; problem: string } | null {
  if (mediaType !== 'TEXT' && urls.length === 0) return { key: 'mediaUrls', problem: `required for ${mediaType} posts` };
  if (mediaType === 'CAROUSEL' && urls.length < THREADS_CAROUSEL.min) return { key: 'mediaUrls', problem: `a carousel has ${THREADS_CAROUSEL.min} to ${THREADS_CAROUSEL.max} items` };
  return null;
}

/** Live-only: a text post, or a text item of a chain, has text. */
export function threadsLiveTextProblem(mediaType: ThreadsMediaType, content: string, of: 'post' | 'item'): string | null {
  if (mediaType !== 'TEXT' || content.trim()) return null;
  return of === 'post' ? 'required for a threads text post' : 'required for a text item';
}
