// What x takes (platforms/x.md §4), by the type read from the file, and where its options name
// media: the post's URLs and each thread item's.
import type { MediaRules } from '../definition.ts';
import { strings } from '../json.ts';
import { mediaUrlItems } from '../media-items.ts';

export const xMedia: MediaRules = {
  image: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  video: ['video/mp4', 'video/quicktime'],
  label: 'JPEG, PNG, WEBP or GIF images and MP4 or MOV videos',
  items(options) {
    const items = mediaUrlItems(options, null);
    const threadItems = Array.isArray(options.threadItems) ? (options.threadItems as Array<Record<string, unknown>>) : [];
    threadItems.forEach((item, i) => strings(item.mediaUrls).forEach((url, j) => items.push({ field: `threadItems[${i}].mediaUrls[${j}]`, url, kind: null })));
    return items;
  },
};
