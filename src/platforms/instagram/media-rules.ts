// What instagram takes (platforms.md §2.3), by the type read from the file, and where its
// options name media: the posts' URLs (of the kind the post needs) and a Reel's JPEG cover.
import type { MediaRules } from '../definition.ts';
import { mediaUrlItems } from '../media-items.ts';

export const instagramMedia: MediaRules = {
  image: ['image/jpeg'],
  video: ['video/mp4', 'video/quicktime'],
  label: 'JPEG images and MP4 or MOV videos',
  items(options) {
    const items = mediaUrlItems(options, options.kind === 'IMAGE' ? 'image' : options.kind === 'REELS' ? 'video' : null);
    if (typeof options.coverUrl === 'string') items.push({ field: 'coverUrl', url: options.coverUrl, kind: 'image', only: ['image/jpeg'] });
    return items;
  },
};
