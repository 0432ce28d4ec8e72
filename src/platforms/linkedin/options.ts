// linkedin's platformSpecificData (DESIGN "More platforms", the linkedin table): the keys a client
// sends (LinkedInData, also the OpenAPI description) and the options validation keeps for the
// publisher (LinkedInOptions: the media as a list with its type decided, one alt text per image).
// The post content is the commentary. validate.ts applies the rules and names the field in a 400.
import { Type, type Static } from 'typebox';

export const LINKEDIN_MEDIA_TYPES = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type LinkedInMediaType = (typeof LINKEDIN_MEDIA_TYPES)[number];
export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'] as const;
export const LINKEDIN_COMMENTARY_MAX = 3000;
export const LINKEDIN_MULTI_IMAGE = { min: 2, max: 20 } as const;

const Article = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'The https link the card opens.' }),
    title: Type.String({ minLength: 1, maxLength: 400, description: 'The card title (LinkedIn scrapes no preview).' }),
    description: Type.Optional(Type.String({ maxLength: 4086 })),
    thumbnailUrl: Type.Optional(Type.String({ format: 'uri', description: 'An image shown on the card (uploaded by the service).' })),
  },
  { description: 'A link card; not with media.' },
);

export const LinkedInData = Type.Object(
  {
    visibility: Type.Optional(Type.Enum(LINKEDIN_VISIBILITIES, { type: 'string', description: 'PUBLIC (default), CONNECTIONS (person accounts only) or LOGGED_IN.' })),
    mediaUrl: Type.Optional(Type.String({ format: 'uri', description: 'One image, video or document (https).' })),
    mediaUrls: Type.Optional(Type.Array(Type.String({ format: 'uri' }), { maxItems: LINKEDIN_MULTI_IMAGE.max, description: '2 to 20 images make a multi-image post; a video or a document is one item.' })),
    mediaType: Type.Optional(Type.Enum(LINKEDIN_MEDIA_TYPES, { type: 'string', description: 'IMAGE, VIDEO or DOCUMENT (PDF, PPT(X), DOC(X)); guessed from the URLs when left out.' })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'Required for a DOCUMENT; the title of a VIDEO.' })),
    altText: Type.Optional(Type.String({ maxLength: 1000, description: 'The alt text of every image.' })),
    altTexts: Type.Optional(Type.Array(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]), { description: 'One per image (null for none).' })),
    article: Type.Optional(Article),
    firstComment: Type.Optional(Type.String({ minLength: 1, maxLength: 1250, description: 'A comment by the same author under the post.' })),
    disableReshare: Type.Optional(Type.Boolean({ description: 'Stops others from resharing the post.' })),
  },
  {
    title: 'LinkedInData',
    description: `platformSpecificData of a linkedin target. The content is the commentary (at most ${LINKEDIN_COMMENTARY_MAX} characters; LinkedIn's reserved characters are escaped by the service, #hashtags and URLs kept). The author is the account: a person or an organization.`,
    additionalProperties: true,
  },
);

export const LinkedInOptions = Type.Object({
  visibility: Type.Optional(Type.Enum(LINKEDIN_VISIBILITIES, { type: 'string' })),
  mediaType: Type.Optional(Type.Enum(LINKEDIN_MEDIA_TYPES, { type: 'string' })),
  mediaUrls: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
  altTexts: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Null()]))),
  title: Type.Optional(Type.String()),
  article: Type.Optional(Type.Object({ url: Type.String(), title: Type.String(), description: Type.Optional(Type.String()), thumbnailUrl: Type.Optional(Type.String()) })),
  firstComment: Type.Optional(Type.String()),
  disableReshare: Type.Optional(Type.Boolean()),
});
export type LinkedInOptions = Static<typeof LinkedInOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    linkedin: LinkedInOptions;
  }
}
