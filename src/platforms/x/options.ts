// x's platformSpecificData (DESIGN "More platforms", the x table): the keys a client sends
// (XData, also the OpenAPI description), the options validation keeps for the publisher
// (XOptions, stored per target: media as a list with one alt text per item, or a chain of thread
// items), and the limits the rules use. validate.ts beside it applies them, naming the field.
import { Type, type Static } from 'typebox';
import { X_TEXT_MAX } from './weighted-length.ts';

export const X_REPLY_SETTINGS = ['everyone', 'following', 'mentionedUsers', 'subscribers', 'verified'] as const;
export const X_MEDIA_MAX = 4;
export const X_THREAD_MAX = 25;
export const X_ALT_MAX = 1000;
export const X_POLL = { minOptions: 2, maxOptions: 4, optionMax: 25, minMinutes: 5, maxMinutes: 10_080 } as const;

const altText = Type.String({ maxLength: X_ALT_MAX });
const media = {
  mediaUrl: Type.Optional(Type.String({ format: 'uri', description: 'One image, video or GIF (https).' })),
  mediaUrls: Type.Optional(Type.Array(Type.String({ format: 'uri' }), { maxItems: X_MEDIA_MAX, description: 'Up to 4 images, or 1 video, or 1 GIF; never mixed.' })),
  altText: Type.Optional(Type.String({ maxLength: X_ALT_MAX, description: 'The alt text of every image or GIF.' })),
  altTexts: Type.Optional(Type.Array(Type.Union([altText, Type.Null()]), { description: 'One per media item (null for none); images and GIFs only.' })),
};

export const XItem = Type.Object(
  {
    content: Type.String({ description: `The text of this post of the chain (at most ${X_TEXT_MAX} weighted characters).` }),
    mediaUrls: media.mediaUrls,
    altTexts: media.altTexts,
  },
  { description: 'One post of the reply chain.' },
);

export const XPollData = Type.Object(
  {
    options: Type.Array(Type.String({ minLength: 1, maxLength: X_POLL.optionMax }), { minItems: X_POLL.minOptions, maxItems: X_POLL.maxOptions }),
    durationMinutes: Type.Integer({ minimum: X_POLL.minMinutes, maximum: X_POLL.maxMinutes }),
  },
  { description: 'A poll: 2 to 4 options of 1 to 25 characters, open 5 to 10080 minutes; not with media or quoteTweetId.' },
);

export const XData = Type.Object(
  {
    ...media,
    poll: Type.Optional(XPollData),
    replySettings: Type.Optional(Type.Enum(X_REPLY_SETTINGS, { type: 'string', description: 'Who may reply (everyone by default); fixed once posted.' })),
    quoteTweetId: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'The id of a post to quote; not with a poll.' })),
    threadItems: Type.Optional(Type.Array(XItem, { minItems: 1, maxItems: X_THREAD_MAX, description: 'A reply chain of 1 to 25 posts published instead of the content and its media.' })),
    firstComment: Type.Optional(Type.String({ minLength: 1, description: `A reply by the account to the (first) post, at most ${X_TEXT_MAX} weighted characters.` })),
    madeWithAi: Type.Optional(Type.Boolean({ description: 'Discloses AI-made content (made_with_ai).' })),
    paidPartnership: Type.Optional(Type.Boolean({ description: 'Discloses a paid partnership (paid_partnership).' })),
  },
  {
    title: 'XData',
    description: `platformSpecificData of an x target. The content is the post's text: at most ${X_TEXT_MAX} weighted characters (twitter-text v3: a URL counts 23, CJK and emoji 2); empty only with media.`,
    additionalProperties: true,
  },
);

const AltTexts = Type.Optional(Type.Array(Type.Union([Type.String(), Type.Null()])));
export const XItemOptions = Type.Object({ content: Type.String(), mediaUrls: Type.Optional(Type.Array(Type.String())), altTexts: AltTexts });

/** What the x publisher reads. */
export const XOptions = Type.Object({
  mediaUrls: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
  altTexts: AltTexts,
  poll: Type.Optional(Type.Object({ options: Type.Array(Type.String()), durationMinutes: Type.Integer() })),
  replySettings: Type.Optional(Type.Enum(X_REPLY_SETTINGS, { type: 'string' })),
  quoteTweetId: Type.Optional(Type.String()),
  threadItems: Type.Optional(Type.Array(XItemOptions, { minItems: 1 })),
  firstComment: Type.Optional(Type.String()),
  madeWithAi: Type.Optional(Type.Boolean()),
  paidPartnership: Type.Optional(Type.Boolean()),
});
export type XOptions = Static<typeof XOptions>;
export type XItemOptions = Static<typeof XItemOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    x: XOptions;
  }
}
