// The media URLs a post's targets use, so the media they name are marked as used by the post
// (their postId) and kept by the cleanup job while the post exists.
const URL_KEYS = ['mediaUrl', 'mediaUrls', 'coverUrl'] as const;

function collect(options: Record<string, unknown>, into: Set<string>): void {
  for (const key of URL_KEYS) {
    const value = options[key];
    if (typeof value === 'string') into.add(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') into.add(item);
  }
  const items = options.threadItems;
  if (Array.isArray(items)) for (const item of items) if (item && typeof item === 'object') collect(item as Record<string, unknown>, into);
}

export function mediaUrlsOf(targets: ReadonlyArray<{ options: Record<string, unknown> }>): string[] {
  const urls = new Set<string>();
  for (const target of targets) collect(target.options, urls);
  return [...urls];
}
