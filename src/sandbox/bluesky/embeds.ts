// The embeds of a post (lexicons app/bsky/embed/*.json): images (1–4, alt required, each an image
// blob ≤ 1,000,000 bytes), video (a video/mp4 blob, alt ≤ 1000 graphemes, ≤ 20 captions),
// external (a link card, its thumb an image ≤ 1,000,000 bytes), record (a quote: a strong ref of a
// post) and recordWithMedia.
import { isObject, type Checker, type Json } from './checker.ts';

const IMAGE_MAX_BYTES = 1_000_000;
const VIDEO_MAX_BYTES = 100_000_000;

/** The strong refs a post points at, for its notifications and counts. */
export function quotedUri(embed: unknown): string | null {
  if (!isObject(embed)) return null;
  if (embed.$type === 'app.bsky.embed.record' && isObject(embed.record)) return typeof embed.record.uri === 'string' ? embed.record.uri : null;
  if (embed.$type === 'app.bsky.embed.recordWithMedia' && isObject(embed.record) && isObject(embed.record.record)) {
    return typeof embed.record.record.uri === 'string' ? embed.record.record.uri : null;
  }
  return null;
}

const isImage = (mime: string) => mime.startsWith('image/');

function checkImages(c: Checker, embed: Json, path: string): void {
  const images = c.array(c.required(embed, 'images', path), `${path}/images`, { min: 1, max: 4 });
  images.forEach((raw, i) => {
    const ipath = `${path}/images/${i}`;
    const image = c.object(raw, ipath);
    c.blob(c.required(image, 'image', ipath), `${ipath}/image`, isImage, 'image/*', IMAGE_MAX_BYTES);
    c.string(c.required(image, 'alt', ipath), `${ipath}/alt`);
    c.aspectRatio(image.aspectRatio, `${ipath}/aspectRatio`);
  });
}

function checkVideo(c: Checker, embed: Json, path: string): void {
  c.blob(c.required(embed, 'video', path), `${path}/video`, (m) => m === 'video/mp4', 'video/mp4', VIDEO_MAX_BYTES);
  if (embed.alt !== undefined) c.string(embed.alt, `${path}/alt`, { maxBytes: 10_000, maxGraphemes: 1000 });
  if (embed.captions !== undefined) c.array(embed.captions, `${path}/captions`, { max: 20 });
  c.aspectRatio(embed.aspectRatio, `${path}/aspectRatio`);
}

function checkExternal(c: Checker, embed: Json, path: string): void {
  const external = c.object(c.required(embed, 'external', path), `${path}/external`);
  c.uri(c.required(external, 'uri', `${path}/external`), `${path}/external/uri`);
  c.string(c.required(external, 'title', `${path}/external`), `${path}/external/title`);
  c.string(c.required(external, 'description', `${path}/external`), `${path}/external/description`);
  if (external.thumb !== undefined) c.blob(external.thumb, `${path}/external/thumb`, isImage, 'image/*', IMAGE_MAX_BYTES);
}

export function checkEmbed(c: Checker, value: unknown): void {
  const path = 'Record/embed';
  const embed = c.object(value, path);
  switch (embed.$type) {
    case 'app.bsky.embed.images':
      return checkImages(c, embed, path);
    case 'app.bsky.embed.video':
      return checkVideo(c, embed, path);
    case 'app.bsky.embed.external':
      return checkExternal(c, embed, path);
    case 'app.bsky.embed.record':
      c.strongRef(c.required(embed, 'record', path), `${path}/record`, 'app.bsky.feed.post');
      return;
    case 'app.bsky.embed.recordWithMedia': {
      const record = c.object(c.required(embed, 'record', path), `${path}/record`);
      c.strongRef(c.required(record, 'record', `${path}/record`), `${path}/record/record`, 'app.bsky.feed.post');
      const media = c.object(c.required(embed, 'media', path), `${path}/media`);
      if (media.$type === 'app.bsky.embed.images') return checkImages(c, media, `${path}/media`);
      if (media.$type === 'app.bsky.embed.video') return checkVideo(c, media, `${path}/media`);
      if (media.$type === 'app.bsky.embed.external') return checkExternal(c, media, `${path}/media`);
      return c.fail(`${path}/media`, 'must be an object which includes the "$type" property (app.bsky.embed.images, video or external)');
    }
    default:
      c.fail(path, 'must be an object which includes the "$type" property (app.bsky.embed.images, video, external, record or recordWithMedia)');
  }
}
