// What pinterest takes (platforms/pinterest.md §3–§4; Pinterest's product specs: PNG or JPEG
// images, MP4, MOV or M4V videos up to 2 GB), by the type read from the file, and where its
// options name media: the Pin's media and a video's cover image.
import type { MediaItem, MediaRules } from '../definition.ts';
import { mediaUrlItems, upperMediaType } from '../media-items.ts';

export const pinterestMedia: MediaRules = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  video: ['video/mp4', 'video/quicktime'],
  label: 'JPEG, PNG, GIF or WEBP images and MP4 or MOV videos',
  items(options) {
    const video = upperMediaType(options) === 'VIDEO';
    const items: MediaItem[] = mediaUrlItems(options, video ? 'video' : 'image');
    if (typeof options.coverImageUrl === 'string') items.push({ field: 'coverImageUrl', url: options.coverImageUrl, kind: 'image' });
    return items;
  },
};
