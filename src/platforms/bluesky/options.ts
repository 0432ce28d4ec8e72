// bluesky's platformSpecificData (DESIGN "More platforms", the bluesky table): the keys a client
// sends (BlueskyData, also the OpenAPI description), the options validation keeps for the
// publisher (BlueskyOptions, stored per target), and the limits the rules use. validate.ts
// applies them, naming the field.
import { Type, type Static } from 'typebox';

export const BSKY_TEXT_GRAPHEMES = 300;
export const BSKY_TEXT_BYTES = 3000;
export const BSKY_IMAGES_MAX = 4;
export const BSKY_ALT_GRAPHEMES = 1000;
export const BSKY_THREAD_MAX = 25;
export const BSKY_LANGS_MAX = 3;
export const BSKY_CARD_TITLE_MAX = 300;
export const BSKY_CARD_DESCRIPTION_MAX = 1000;
export const BSKY_REPLY_CONTROLS = ['everyone', 'nobody', 'mentioned', 'following', 'followers'] as const;
export const BSKY_CONTENT_WARNINGS = ['sexual', 'nudity', 'porn', 'graphic-media'] as const;
/** A post's at:// URI (the authority a DID or a handle). */
export const AT_POST_URI = '^at://[^/\\s]+/app\\.bsky\\.feed\\.post/[A-Za-z0-9._:~-]{1,512}$';
/** A BCP-47 language tag, in the shape the lexicon's `language` format takes (en, pt-BR, zh-Hant). */
export const LANG_TAG = '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$|^[ix]-[a-zA-Z0-9-]+$';

const altText = Type.String({ description: `At most ${BSKY_ALT_GRAPHEMES} graphemes.` });
const media = {
  mediaUrl: Type.Optional(Type.String({ format: 'uri', description: 'One image or one MP4 video (https).' })),
  mediaUrls: Type.Optional(Type.Array(Type.String({ format: 'uri' }), { minItems: 1, maxItems: BSKY_IMAGES_MAX, description: '1 to 4 images, or 1 MP4 video; never mixed. Images over 1,000,000 bytes are downscaled (at most 2000 px, JPEG).' })),
  altText: Type.Optional(Type.String({ description: `The alt text of every image, or of the video (at most ${BSKY_ALT_GRAPHEMES} graphemes).` })),
  altTexts: Type.Optional(Type.Array(Type.Union([altText, Type.Null()]), { description: 'One per media item (null for none: images get an empty alt text).' })),
};

export const BlueskyItem = Type.Object(
  {
    content: Type.String({ description: `The text of this post of the chain (at most ${BSKY_TEXT_GRAPHEMES} graphemes and ${BSKY_TEXT_BYTES} UTF-8 bytes).` }),
    mediaUrls: media.mediaUrls,
    altTexts: media.altTexts,
  },
  { description: 'One post of the reply chain.' },
);

export const BlueskyLinkCard = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'The link (https).' }),
    title: Type.Optional(Type.String({ maxLength: BSKY_CARD_TITLE_MAX })),
    description: Type.Optional(Type.String({ maxLength: BSKY_CARD_DESCRIPTION_MAX })),
    thumbnailUrl: Type.Optional(Type.String({ format: 'uri', description: 'An image shown on the card (https; downscaled like post images).' })),
  },
  { description: 'A link card (external embed); Bluesky fetches nothing itself, so the card shows what is given here. Not with media.' },
);

export const BlueskyData = Type.Object(
  {
    ...media,
    linkCard: Type.Optional(BlueskyLinkCard),
    quoteUri: Type.Optional(Type.String({ pattern: AT_POST_URI, description: 'The at:// URI of a post to quote (with media: the media and the quote together).' })),
    langs: Type.Optional(Type.Array(Type.String({ pattern: LANG_TAG }), { minItems: 1, maxItems: BSKY_LANGS_MAX, description: '1 to 3 BCP-47 language tags of the text.' })),
    replyControl: Type.Optional(Type.Enum(BSKY_REPLY_CONTROLS, { type: 'string', description: 'Who may reply (everyone by default): a thread gate made with the post.' })),
    contentWarning: Type.Optional(Type.Enum(BSKY_CONTENT_WARNINGS, { type: 'string', description: 'A self-label that hides the media behind a warning.' })),
    threadItems: Type.Optional(Type.Array(BlueskyItem, { minItems: 1, maxItems: BSKY_THREAD_MAX, description: 'A reply chain of 1 to 25 posts published instead of the content and its media.' })),
    firstComment: Type.Optional(Type.String({ minLength: 1, description: `A reply by the account to the (first) post, at most ${BSKY_TEXT_GRAPHEMES} graphemes.` })),
  },
  {
    title: 'BlueskyData',
    description: `platformSpecificData of a bluesky target. The content is the post's text: at most ${BSKY_TEXT_GRAPHEMES} graphemes and ${BSKY_TEXT_BYTES} UTF-8 bytes; links, @handles and #tags in it become links, mentions and tags.`,
    additionalProperties: true,
  },
);

const AltTexts = Type.Optional(Type.Array(Type.Union([Type.String(), Type.Null()])));
export const BlueskyItemOptions = Type.Object({ content: Type.String(), mediaUrls: Type.Optional(Type.Array(Type.String())), altTexts: AltTexts });
export const BlueskyLinkCardOptions = Type.Object({ url: Type.String(), title: Type.Optional(Type.String()), description: Type.Optional(Type.String()), thumbnailUrl: Type.Optional(Type.String()) });

/** What the bluesky publisher reads. */
export const BlueskyOptions = Type.Object({
  mediaUrls: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
  altTexts: AltTexts,
  linkCard: Type.Optional(BlueskyLinkCardOptions),
  quoteUri: Type.Optional(Type.String()),
  langs: Type.Optional(Type.Array(Type.String())),
  replyControl: Type.Optional(Type.Enum(BSKY_REPLY_CONTROLS, { type: 'string' })),
  contentWarning: Type.Optional(Type.Enum(BSKY_CONTENT_WARNINGS, { type: 'string' })),
  threadItems: Type.Optional(Type.Array(BlueskyItemOptions, { minItems: 1 })),
  firstComment: Type.Optional(Type.String()),
});
export type BlueskyOptions = Static<typeof BlueskyOptions>;
export type BlueskyItemOptions = Static<typeof BlueskyItemOptions>;
export type BlueskyLinkCardOptions = Static<typeof BlueskyLinkCardOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    bluesky: BlueskyOptions;
  }
}
