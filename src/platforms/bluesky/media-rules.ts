// What bluesky takes (bluesky.md §4, §5), by the type read from the file, and where its options
// name media: the post's URLs, each thread item's, and the link card's thumbnail (an image).
import type { MediaRules } from '../definition.ts';
import { obj, str, strings } from '../json.ts';
import { mediaUrlItems } from '../media-items.ts';

export const blueskyMedia: MediaRules = {
  image: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  video: ['video/mp4'],
  label: 'JPEG, PNG, WEBP or GIF images and MP4 videos',
  items(options) {
    const items = mediaUrlItems(options, null);
    const threadItems = Array.isArray(options.threadItems) ? (options.threadItems as Array<Record<string, unknown>>) : [];
    threadItems.forEach((item, i) => strings(item.mediaUrls).forEach((url, j) => items.push({ field: `threadItems[${i}].mediaUrls[${j}]`, url, kind: null })));
    const thumb = str(obj(options.linkCard).thumbnailUrl);
    if (thumb) items.push({ field: 'linkCard.thumbnailUrl', url: thumb, kind: 'image' });
    return items;
  },
};
