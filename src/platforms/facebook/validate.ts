// facebook Pages' platformSpecificData (contract table "facebook (Pages)"; platforms.md §3.1):
// the format rules of src/platforms/facebook/options.ts, its live-only rules when the post goes
// live, and the rules between keys (a reel is one video, a link only without media, …).
import {
  FACEBOOK_MESSAGE_MAX,
  FacebookData,
  facebookLiveFeedProblem,
  facebookLiveMediaProblem,
  type FacebookOptions,
} from './options.ts';
import { compact, Fields, length, looksLikeVideo, type TargetInput, type Validated } from '../validate-fields.ts';

export function validateFacebook(input: TargetInput): Validated<FacebookOptions> {
  const f = new Fields(input, FacebookData);
  const contentType = f.oneOf('contentType') ?? 'feed';
  const urls = f.mediaUrls();
  const mediaType = f.oneOf('mediaType');
  const isVideo = (url: string) => mediaType === 'VIDEO' || (mediaType === undefined && looksLikeVideo(url));
  const video = urls.length === 1 && isVideo(urls[0] ?? '');
  if (length(input.content) > FACEBOOK_MESSAGE_MAX) f.failTarget('content', `a facebook post has at most ${FACEBOOK_MESSAGE_MAX} characters`);

  if (contentType === 'feed' && urls.length > 1 && urls.some(isVideo)) f.fail('mediaUrls', 'a multi-photo post takes 2 to 10 photos, no videos');
  if (contentType !== 'feed' && urls.length > 1) f.fail('mediaUrls', `a ${contentType} takes one item`);
  if (contentType === 'reel' && urls.length === 1 && (mediaType === 'IMAGE' || !video)) f.fail(mediaType === 'IMAGE' ? 'mediaType' : 'mediaUrl', 'a reel is one video');
  if (input.live) f.failLive(facebookLiveMediaProblem(contentType, urls));
  if (contentType === 'story' && input.content) f.warnings.push({ key: 'content', message: 'stories have no caption; the content is not sent to facebook' });

  const link = f.link('link');
  if (link !== undefined && (urls.length > 0 || contentType !== 'feed')) f.fail('link', 'only for text posts without media');
  if (input.live) f.failLive(facebookLiveFeedProblem(contentType, urls, link, input.content));

  let title: string | undefined;
  if (video || contentType === 'reel') title = f.string('title');
  else f.skip('title', 'videos and reels only; skipped');

  const draft = f.boolean('draft');
  if (draft === true && (contentType !== 'feed' || urls.length === 1)) f.fail('draft', 'drafts are text, link or multi-photo posts only');

  let firstComment: string | undefined;
  if (contentType === 'story' || draft === true) f.skip('firstComment', `not on ${contentType === 'story' ? 'stories' : 'drafts'}; skipped`);
  else firstComment = f.string('firstComment');

  const options: FacebookOptions = compact({
    title,
    draft,
    firstComment,
    contentType,
    link,
    mediaUrls: urls.length ? urls : undefined,
    mediaType: urls.length ? (urls.every(isVideo) ? ('VIDEO' as const) : ('IMAGE' as const)) : undefined,
  });
  return { options, warnings: f.warnings };
}
