// What youtube takes (youtube.md §4, §6), by the type read from the file: the video as MP4 or
// QuickTime, and the thumbnail as JPEG or PNG.
import type { MediaItem, MediaRules } from '../definition.ts';

export const youtubeMedia: MediaRules = {
  image: ['image/jpeg', 'image/png'],
  video: ['video/mp4', 'video/quicktime'],
  label: 'an MP4 or QuickTime video and a JPEG or PNG thumbnail',
  items(options) {
    const items: MediaItem[] = [];
    if (typeof options.mediaUrl === 'string') items.push({ field: 'mediaUrl', url: options.mediaUrl, kind: 'video' });
    if (typeof options.thumbnailUrl === 'string') items.push({ field: 'thumbnailUrl', url: options.thumbnailUrl, kind: 'image' });
    return items;
  },
};
