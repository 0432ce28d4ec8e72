// youtube's platformSpecificData rules (DESIGN "More platforms", the youtube table): the
// description (the post content) within 5000 UTF-8 bytes, title 1–100 characters, neither with
// < or > (YouTube refuses them; the service does not strip them), tags within 500 characters as
// YouTube counts them, publishAt only with a public (or unset) privacy (whether it is still ahead is checked when the upload starts), digits
// for the category. A live post needs its video, its title and the made-for-kids declaration.
import { compact, Fields, length, type TargetInput, type Validated } from '../validate-fields.ts';
import { YOUTUBE_DESCRIPTION_BYTES, YOUTUBE_TAGS_MAX, YouTubeData, type YouTubeOptions } from './options.ts';

/** As YouTube counts tags: each tag's characters, 2 more for a tag with a space (quoted), 1 per comma between. */
export const tagsLength = (tags: string[]): number => tags.reduce((n, t) => n + length(t) + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);

const ANGLE = /[<>]/;

/** What YouTube would refuse in a description (the post content, also when a published video is edited), or null. */
export function descriptionProblem(description: string): string | null {
  const bytes = Buffer.byteLength(description, 'utf8');
  if (bytes > YOUTUBE_DESCRIPTION_BYTES) return `a YouTube description has at most ${YOUTUBE_DESCRIPTION_BYTES} UTF-8 bytes (this one has ${bytes})`;
  return ANGLE.test(description) ? 'YouTube refuses < and > in a description' : null;
}

export function validateYouTube(input: TargetInput): Validated<YouTubeOptions> {
  const f = new Fields(input, YouTubeData);
  const description = descriptionProblem(input.content);
  if (description) f.failTarget('content', description);
  const [mediaUrl] = f.mediaUrls();
  const title = f.string('title');
  if (title !== undefined && !title.trim()) f.fail('title', 'must not be blank');
  if (title !== undefined && ANGLE.test(title)) f.fail('title', 'YouTube refuses < and > in a title');
  const privacyStatus = f.oneOf('privacyStatus');
  const publishAt = f.string('publishAt');
  if (publishAt !== undefined) {
    const at = Date.parse(publishAt);
    if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}T/.test(publishAt)) f.fail('publishAt', 'must be an ISO 8601 date-time');
    if (privacyStatus !== undefined && privacyStatus !== 'public') f.fail('publishAt', 'goes with privacyStatus public (or none): YouTube keeps the video private until then');
  }
  let tags: string[] | undefined;
  if (f.has('tags')) {
    const raw = f.raw('tags');
    if (!Array.isArray(raw)) return f.fail('tags', 'must be an array of strings');
    const given = (raw as unknown[]).map((tag: unknown, i: number) => {
      if (typeof tag !== 'string' || !tag.trim()) return f.fail(`tags[${i}]`, 'must be a non-empty string');
      if (ANGLE.test(tag) || tag.includes(',')) return f.fail(`tags[${i}]`, 'YouTube refuses <, > and commas in a tag');
      return tag;
    });
    if (tagsLength(given) > YOUTUBE_TAGS_MAX) f.fail('tags', `YouTube allows ${YOUTUBE_TAGS_MAX} characters of tags in all (a tag with a space counts 2 more, each comma between tags 1); these have ${tagsLength(given)}`);
    tags = given;
  }
  const categoryId = f.string('categoryId');
  if (categoryId !== undefined && !f.matches('categoryId', categoryId)) f.fail('categoryId', 'must be digits (a YouTube video category id)');
  const defaultLanguage = f.string('defaultLanguage');
  if (defaultLanguage !== undefined && !f.matches('defaultLanguage', defaultLanguage)) f.fail('defaultLanguage', 'must be a BCP-47 language tag');
  const madeForKids = f.boolean('madeForKids');
  if (input.live) {
    if (mediaUrl === undefined) f.fail('mediaUrl', 'required for live posts (the video)');
    if (title === undefined) f.fail('title', 'required for live posts');
    if (madeForKids === undefined) f.fail('madeForKids', 'required for live posts: declare whether the video is made for children (a legal declaration, not guessed)');
  }
  const options: YouTubeOptions = compact({
    mediaUrl,
    title,
    privacyStatus,
    madeForKids,
    publishAt: publishAt !== undefined ? new Date(Date.parse(publishAt)).toISOString() : undefined,
    tags,
    categoryId,
    thumbnailUrl: f.url('thumbnailUrl'),
    playlistId: f.string('playlistId'),
    notifySubscribers: f.boolean('notifySubscribers'),
    containsSyntheticMedia: f.boolean('containsSyntheticMedia'),
    embeddable: f.boolean('embeddable'),
    license: f.oneOf('license'),
    defaultLanguage,
    firstComment: f.string('firstComment'),
  });
  return { options, warnings: f.warnings };
}
