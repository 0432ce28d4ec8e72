// What tiktok takes (platforms.md §5.3–5.4), by the type read from the file: the photos of a
// photo post, or the one video.
import type { MediaRules } from '../definition.ts';
import { mediaUrlItems } from '../media-items.ts';

export const tiktokMedia: MediaRules = {
  image: ['image/jpeg', 'image/webp'],
  video: ['video/mp4', 'video/quicktime', 'video/webm'],
  label: 'JPEG or WebP photos and MP4, MOV or WebM videos',
  items: (options) => mediaUrlItems(options, options.mediaType === 'image' ? 'image' : 'video'),
};
