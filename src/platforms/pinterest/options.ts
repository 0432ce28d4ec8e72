// pinterest's platformSpecificData (DESIGN "More platforms", the pinterest table): the keys a
// client sends (PinterestData, also the OpenAPI description) and what validation keeps for the
// publisher (PinterestOptions: the media as a list with its kind decided). The post content is the
// Pin's description. validate.ts applies the rules and names the field in a 400.
import { Type, type Static } from 'typebox';

export const PINTEREST_DESCRIPTION_MAX = 800;
export const PINTEREST_CAROUSEL = { min: 2, max: 5 } as const;
export const PINTEREST_MEDIA_TYPES = ['IMAGE', 'CAROUSEL', 'VIDEO'] as const;
export type PinterestMediaType = (typeof PINTEREST_MEDIA_TYPES)[number];

const Digits = (description: string) => Type.String({ pattern: '^[0-9]{1,30}$', description });

export const PinterestData = Type.Object(
  {
    boardId: Type.Optional(Digits('The board the Pin goes to: one of the account’s boards (GET /accounts/{id}/boards). Required for live posts.')),
    boardSectionId: Type.Optional(Digits('A section of that board.')),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The Pin title; none by default.' })),
    link: Type.Optional(Type.String({ maxLength: 2048, description: 'The destination link (http or https).' })),
    altText: Type.Optional(Type.String({ maxLength: 500, description: 'Alt text of the image (images only).' })),
    mediaUrl: Type.Optional(Type.String({ format: 'uri', description: 'One image or one video; Pinterest fetches images from this URL, videos are uploaded by the service.' })),
    mediaUrls: Type.Optional(Type.Array(Type.String({ format: 'uri' }), { minItems: 1, maxItems: PINTEREST_CAROUSEL.max, description: '2 to 5 images make a carousel; one item is an image or a video. Images and a video are not mixed.' })),
    coverImageUrl: Type.Optional(Type.String({ format: 'uri', description: 'Video only: the cover image.' })),
    coverImageKeyFrameTime: Type.Optional(Type.Number({ minimum: 0, description: 'Video only: the second of the video shown as cover (default 0); not with coverImageUrl.' })),
  },
  {
    title: 'PinterestData',
    description: `platformSpecificData of a pinterest target. The content is the Pin's description (at most ${PINTEREST_DESCRIPTION_MAX} characters). A live post needs boardId and media (mediaUrl or mediaUrls).`,
    additionalProperties: true,
  },
);

export const PinterestOptions = Type.Object({
  boardId: Type.Optional(Type.String()),
  boardSectionId: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  link: Type.Optional(Type.String()),
  altText: Type.Optional(Type.String()),
  mediaType: Type.Optional(Type.Enum(PINTEREST_MEDIA_TYPES, { type: 'string' })),
  mediaUrls: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
  coverImageUrl: Type.Optional(Type.String()),
  coverImageKeyFrameTime: Type.Optional(Type.Number()),
});
export type PinterestOptions = Static<typeof PinterestOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    pinterest: PinterestOptions;
  }
}
