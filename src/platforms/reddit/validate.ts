// reddit's platformSpecificData (contract table "reddit"; platforms.md §6.2): the format rules
// of src/platforms/reddit/options.ts, and its live-only rules when the post goes live.
import { RedditData, redditLiveProblem, type RedditOptions } from './options.ts';
import { compact, Fields, type TargetInput, type Validated } from '../validate-fields.ts';

export function validateReddit(input: TargetInput): Validated<RedditOptions> {
  const f = new Fields(input, RedditData);
  const subreddit = f.string('subreddit');
  if (subreddit !== undefined) {
    if (/^\/?r\//i.test(subreddit)) f.fail('subreddit', 'write the name without r/');
    if (!f.matches('subreddit', subreddit)) f.fail('subreddit', 'must be a subreddit name (letters, digits and _)');
  }
  const options = compact({ subreddit, title: f.string('title'), url: f.link('url', { http: true }), flairId: f.string('flairId') });
  if (input.live) f.failLive(redditLiveProblem(options, input.content));
  return { options, warnings: f.warnings };
}
