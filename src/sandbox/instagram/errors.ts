// The Instagram publishing errors of platforms.md §2.4 (all HTTP 400), with the user title and
// message Graph adds to them. Wordings of 9004/2207052 and 36000/2207004 follow error bodies
// seen in client bug reports; the others are the table's meanings in Graph's style.
import { graphError } from '../meta/graph-error.ts';
import type { PlatformError } from '../core/platform-error.ts';

interface IgErrorDef {
  code: number;
  message: string;
  title: string;
}

export const IG_ERRORS: Record<number, IgErrorDef> = {
  2207001: { code: -1, message: 'An unexpected error has occurred. Please retry your request later.', title: 'Server error' },
  2207003: { code: -2, message: 'Timeout while downloading the media.', title: 'Media download timed out' },
  2207004: { code: 36000, message: 'The image size is too large.', title: 'Image size too large' },
  2207005: { code: 36001, message: 'The image format is not supported.', title: 'Unsupported image format' },
  2207006: { code: 24, message: 'The media with this id was not found.', title: 'Media not found' },
  2207008: { code: 24, message: 'The media container does not exist or has expired.', title: 'Media container expired' },
  2207010: { code: 36004, message: 'The caption is too long.', title: 'Caption too long' },
  2207023: { code: 100, message: 'The media type is unknown or not supported here.', title: 'Unknown media type' },
  2207026: { code: 352, message: 'The video format is not supported. Please check the spec for supported video formats.', title: 'Unsupported video format' },
  2207027: { code: 9007, message: 'Media ID is not available', title: 'Media not ready for publishing' },
  2207028: { code: 100, message: 'A carousel must have between 2 and 10 items.', title: 'Carousel size' },
  2207040: { code: 100, message: 'Cannot use more than 20 tags.', title: 'Too many tags' },
  2207057: { code: 1, message: 'The thumbnail offset is out of range for this video.', title: 'Invalid thumb_offset' },
  2207042: { code: 9, message: 'The user has reached the daily publishing limit.', title: 'Publishing limit reached' },
  2207052: { code: 9004, message: 'Only photo or video can be accepted as media type.', title: "Media download has failed. The media URI doesn't meet our requirements." },
};

export function igError(subcode: number, userMessage?: string): PlatformError {
  const def = IG_ERRORS[subcode] ?? { code: -1, message: 'An unknown error occurred', title: 'Error' };
  return graphError({
    code: def.code,
    subcode,
    message: def.message,
    type: 'OAuthException',
    userTitle: def.title,
    userMessage: userMessage ?? def.title,
    isTransient: def.code === -2 || def.code === -1,
    status: 400,
  });
}
