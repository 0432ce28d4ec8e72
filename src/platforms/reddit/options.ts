// reddit's platformSpecificData (contract table "reddit"): the keys a client sends
// (RedditData, also the OpenAPI description), the options validation keeps for the publisher
// (RedditOptions, stored per target), and the rules checked only when the post goes live.
// validate.ts beside it turns a broken rule into the 400 that names the field.
import { Type, type Static } from 'typebox';

export const REDDIT_TITLE_MAX = 300;

export const RedditData = Type.Object(
  {
    subreddit: Type.Optional(
      Type.String({ minLength: 1, maxLength: 21, pattern: '^[A-Za-z0-9][A-Za-z0-9_]{1,20}$', description: 'The subreddit, written without r/. Required when the post goes live.' }),
    ),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: REDDIT_TITLE_MAX, description: 'Defaults to the first line of the content.' })),
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'An http(s) link: makes a link post.' })),
    flairId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "A flair's id in the subreddit." })),
  },
  { title: 'RedditData', description: 'platformSpecificData of a reddit target.', additionalProperties: true },
);

/** What the reddit publisher reads: the keys given, as validated (the title may still be absent). */
export const RedditOptions = Type.Object({
  subreddit: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  flairId: Type.Optional(Type.String()),
});
export type RedditOptions = Static<typeof RedditOptions>;

declare module '../target-options.ts' {
  interface OptionsByPlatform {
    reddit: RedditOptions;
  }
}

/**
 * The live-only rules: a subreddit, and a title (given, or the content's first line, which must
 * be there and fit). The first rule broken, as the option key and the problem.
 */
export function redditLiveProblem(options: RedditOptions, content: string): { key: 'subreddit' | 'title'; problem: string } | null {
  if (options.subreddit === undefined) return { key: 'subreddit', problem: 'required for live posts' };
  if (options.title !== undefined) return null;
  const firstLine = (content.split('\n')[0] ?? '').trim();
  if (!firstLine) return { key: 'title', problem: 'required for live posts when the content has no first line to use' };
  if ([...firstLine].length > REDDIT_TITLE_MAX) return { key: 'title', problem: `required: the content's first line, the default title, has over ${REDDIT_TITLE_MAX} characters` };
  return null;
}
