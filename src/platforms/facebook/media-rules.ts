// What facebook takes (platforms.md §3.1), by the type read from the file: a reel or a video
// post needs a video, a photo post an image.
import type { MediaRules } from '../definition.ts';
import { mediaUrlItems, upperMediaType } from '../media-items.ts';

export const facebookMedia: MediaRules = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  video: ['video/mp4', 'video/quicktime'],
  label: 'JPEG, PNG, GIF or WebP images and MP4 or MOV videos',
  items(options) {
    const type = upperMediaType(options);
    return mediaUrlItems(options, options.contentType === 'reel' || type === 'VIDEO' ? 'video' : type === 'IMAGE' ? 'image' : null);
  },
};
