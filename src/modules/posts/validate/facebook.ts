// facebook Pages' platformSpecificData (contract table "facebook (Pages)"; platforms.md §3.1).
import { Fields, length, looksLikeVideo, type TargetInput, type TargetResult } from './common.ts';

export const FACEBOOK_KEYS = ['contentType', 'mediaUrl', 'mediaUrls', 'mediaType', 'link', 'title', 'firstComment', 'draft'] as const;

export function validateFacebook(input: TargetInput): TargetResult {
  const f: Fields = new Fields(input);
  const contentType = f.oneOf('contentType', ['feed', 'reel', 'story'] as const) ?? 'feed';
  const urls = f.mediaUrls(1, 10);
  const mediaType = f.oneOf('mediaType', ['IMAGE', 'VIDEO'] as const);
  const isVideo = (url: string) => mediaType === 'VIDEO' || (mediaType === undefined && looksLikeVideo(url));
  const video = urls.length === 1 && isVideo(urls[0] ?? '');
  if (length(input.content) > 63_206) f.failTarget('content', 'a facebook post has at most 63206 characters');

  if (contentType === 'feed' && urls.length > 1 && urls.some(isVideo)) f.fail('mediaUrls', 'a multi-photo post takes 2 to 10 photos, no videos');
  if (contentType !== 'feed' && urls.length > 1) f.fail('mediaUrls', `a ${contentType} takes one item`);
  if (contentType === 'reel' && urls.length === 1 && (mediaType === 'IMAGE' || !video)) f.fail(mediaType === 'IMAGE' ? 'mediaType' : 'mediaUrl', 'a reel is one video');
  if (input.live && contentType !== 'feed' && urls.length === 0) f.fail('mediaUrl', `required for a ${contentType}`);
  if (contentType === 'story' && input.content) f.warnings.push({ key: 'content', message: 'stories have no caption; the content is not sent to facebook' });

  const link = f.link('link');
  if (link !== undefined && (urls.length > 0 || contentType !== 'feed')) f.fail('link', 'only for text posts without media');
  if (input.live && contentType === 'feed' && !urls.length && !link && !input.content.trim()) f.failTarget('content', 'a facebook feed post needs content, media or a link');

  if (video || contentType === 'reel') f.keep('title', f.string('title', { max: 255 }));
  else f.skip('title', 'videos and reels only; skipped');

  const draft = f.boolean('draft');
  if (draft === true && (contentType !== 'feed' || urls.length === 1)) f.fail('draft', 'drafts are text, link or multi-photo posts only');
  f.keep('draft', draft);

  if (contentType === 'story' || draft === true) f.skip('firstComment', `not on ${contentType === 'story' ? 'stories' : 'drafts'}; skipped`);
  else f.keep('firstComment', f.string('firstComment', { min: 1, max: 8000 }));

  f.keep('contentType', contentType);
  f.keep('link', link);
  if (urls.length) f.keep('mediaUrls', urls);
  f.keep('mediaType', urls.length ? (urls.every(isVideo) ? 'VIDEO' : 'IMAGE') : undefined);
  return f.result();
}
