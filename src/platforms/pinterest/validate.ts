// pinterest's platformSpecificData rules (DESIGN "More platforms", the pinterest table): the
// description (the content) up to 800 characters, board and section ids as digits, the title,
// link and alt text limits, media as 1 image, 2–5 images (a carousel) or 1 video, never mixed,
// the cover of a video (a URL or a key frame time, not both). A live post needs its board and
// its media. Whether the board and section are the account's is checked when it publishes.
import { compact, Fields, length, looksLikeVideo, type TargetInput, type Validated } from '../validate-fields.ts';
import { PINTEREST_CAROUSEL, PINTEREST_DESCRIPTION_MAX, PinterestData, type PinterestMediaType, type PinterestOptions } from './options.ts';

type PinterestFields = Fields<(typeof PinterestData)['properties']>;

function digits(f: PinterestFields, key: 'boardId' | 'boardSectionId'): string | undefined {
  if (!f.has(key)) return undefined;
  const value = f.raw(key);
  if (typeof value !== 'string' || !f.matches(key, value)) return f.fail(key, 'must be a string of digits (a Pinterest id)');
  return value;
}

function mediaType(f: PinterestFields, urls: string[]): PinterestMediaType | undefined {
  if (!urls.length) return undefined;
  const videos = urls.filter(looksLikeVideo).length;
  if (videos && urls.length > 1) f.fail('mediaUrls', 'a video Pin has one video; images and a video are not mixed');
  if (videos) return 'VIDEO';
  if (urls.length === 1) return 'IMAGE';
  if (urls.length < PINTEREST_CAROUSEL.min) f.fail('mediaUrls', `a carousel has ${PINTEREST_CAROUSEL.min} to ${PINTEREST_CAROUSEL.max} images`);
  return 'CAROUSEL';
}

export function validatePinterest(input: TargetInput): Validated<PinterestOptions> {
  const f = new Fields(input, PinterestData);
  if (length(input.content) > PINTEREST_DESCRIPTION_MAX) f.failTarget('content', `a Pin description has at most ${PINTEREST_DESCRIPTION_MAX} characters`);
  const boardId = digits(f, 'boardId');
  const boardSectionId = digits(f, 'boardSectionId');
  if (boardSectionId !== undefined && boardId === undefined) f.fail('boardSectionId', 'needs boardId (a section of that board)');
  if (input.live && boardId === undefined) f.fail('boardId', 'required for live posts (GET /accounts/{id}/boards lists the account’s boards)');
  const title = f.string('title');
  const link = f.link('link', { http: true });
  const urls = f.mediaUrls();
  if (input.live && !urls.length) f.fail('mediaUrl', 'required for live posts: a Pin has an image, 2 to 5 images or a video');
  const type = mediaType(f, urls);
  const altText = f.string('altText');
  if (altText !== undefined && type === 'VIDEO') f.fail('altText', 'alt text is for images');
  const coverImageUrl = f.url('coverImageUrl');
  if (f.has('coverImageKeyFrameTime') && typeof f.raw('coverImageKeyFrameTime') !== 'number') f.fail('coverImageKeyFrameTime', 'must be a number of seconds');
  const keyFrame = f.has('coverImageKeyFrameTime') ? (f.raw('coverImageKeyFrameTime') as number) : undefined;
  if (keyFrame !== undefined && (!Number.isFinite(keyFrame) || keyFrame < 0)) f.fail('coverImageKeyFrameTime', 'must be 0 or more seconds');
  if (coverImageUrl !== undefined && keyFrame !== undefined) f.fail('coverImageKeyFrameTime', 'give coverImageUrl or coverImageKeyFrameTime, not both');
  for (const key of ['coverImageUrl', 'coverImageKeyFrameTime'] as const) if (f.has(key) && type !== 'VIDEO') f.fail(key, 'only for a video Pin');
  const options: PinterestOptions = compact({
    boardId,
    boardSectionId,
    title,
    link,
    altText,
    mediaType: type,
    mediaUrls: urls.length ? urls : undefined,
    coverImageUrl,
    coverImageKeyFrameTime: keyFrame,
  });
  return { options, warnings: f.warnings };
}
