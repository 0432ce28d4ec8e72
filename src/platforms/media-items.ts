// Reading media URLs out of a target's validated options, for the platforms' media rules.
import type { MediaItem, MediaKind } from './definition.ts';
import { strings } from './json.ts';

/** Every URL of `mediaUrls`, each needing `kind`. */
export const mediaUrlItems = (options: Record<string, unknown>, kind: MediaKind | null): MediaItem[] => strings(options.mediaUrls).map((url, i) => ({ field: `mediaUrls[${i}]`, url, kind }));

/** `mediaType` in capitals ('' when absent). */
export const upperMediaType = (options: Record<string, unknown>): string => (typeof options.mediaType === 'string' ? options.mediaType.toUpperCase() : '');
