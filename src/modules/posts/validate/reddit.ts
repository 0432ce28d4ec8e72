// reddit's platformSpecificData (contract table "reddit"; platforms.md §6.2).
import { Fields, length, type TargetInput, type TargetResult } from './common.ts';

export const REDDIT_KEYS = ['subreddit', 'title', 'url', 'flairId'] as const;

const SUBREDDIT = /^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/;

export function validateReddit(input: TargetInput): TargetResult {
  const f: Fields = new Fields(input);
  const subreddit = f.string('subreddit', { min: 1, max: 21 });
  if (subreddit !== undefined) {
    if (/^\/?r\//i.test(subreddit)) f.fail('subreddit', 'write the name without r/');
    if (!SUBREDDIT.test(subreddit)) f.fail('subreddit', 'must be a subreddit name (letters, digits and _)');
  }
  const title = f.string('title', { min: 1, max: 300 });
  const url = f.link('url', { http: true });
  const flairId = f.string('flairId', { min: 1, max: 100 });
  if (input.live) {
    if (subreddit === undefined) f.fail('subreddit', 'required for live posts');
    if (title === undefined) {
      const firstLine = (input.content.split('\n')[0] ?? '').trim();
      if (!firstLine) f.fail('title', 'required for live posts when the content has no first line to use');
      if (length(firstLine) > 300) f.fail('title', 'required: the content\'s first line, the default title, has over 300 characters');
    }
  }
  f.keep('subreddit', subreddit);
  f.keep('title', title);
  f.keep('url', url);
  f.keep('flairId', flairId);
  return f.result();
}
