// What linkedin takes (linkedin.md §6), by the type read from the file: JPEG, PNG and GIF images
// and MP4 videos. Documents (PDF, Office) are not images or videos and are left to LinkedIn's own
// processing; an article's thumbnail is an image.
import type { MediaItem, MediaRules } from '../definition.ts';
import { mediaUrlItems, upperMediaType } from '../media-items.ts';

export const linkedinMedia: MediaRules = {
  image: ['image/jpeg', 'image/png', 'image/gif'],
  video: ['video/mp4'],
  label: 'JPEG, PNG or GIF images and MP4 videos',
  items(options) {
    const type = upperMediaType(options);
    const items: MediaItem[] = type === 'DOCUMENT' ? [] : mediaUrlItems(options, type === 'VIDEO' ? 'video' : 'image');
    const article = options.article;
    if (article && typeof article === 'object' && typeof (article as { thumbnailUrl?: unknown }).thumbnailUrl === 'string') {
      items.push({ field: 'article.thumbnailUrl', url: (article as { thumbnailUrl: string }).thumbnailUrl, kind: 'image' });
    }
    return items;
  },
};
