// What threads takes (platforms.md §4.2), by the type read from the file, and where its options
// name media: the first post's URLs and each reply's (threadItems).
import type { MediaRules } from '../definition.ts';
import { strings } from '../json.ts';
import { mediaUrlItems, upperMediaType } from '../media-items.ts';

export const threadsMedia: MediaRules = {
  image: ['image/jpeg', 'image/png'],
  video: ['video/mp4', 'video/quicktime'],
  label: 'JPEG or PNG images and MP4 or MOV videos',
  items(options) {
    const type = upperMediaType(options);
    const items = mediaUrlItems(options, type === 'IMAGE' ? 'image' : type === 'VIDEO' ? 'video' : null);
    const threadItems = Array.isArray(options.threadItems) ? (options.threadItems as Array<Record<string, unknown>>) : [];
    threadItems.forEach((item, i) => strings(item.mediaUrls).forEach((url, j) => items.push({ field: `threadItems[${i}].mediaUrls[${j}]`, url, kind: null })));
    return items;
  },
};
