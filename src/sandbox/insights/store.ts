// What the sandbox keeps for insights beyond the platforms' own records: metric names a test has
// retired (the platform renamed them: asking for one is Graph's invalid-metric error, code 100,
// as after Meta's 2025 deprecations), and the votes of reddit links, which decide their score.
export interface RedditVotes {
  ups: number;
  downs: number;
}

export class InsightsStore {
  /** Key `host metric` (`graph.facebook.com post_clicks`); the host `*` retires it everywhere. */
  readonly retired = new Map<string, true>();
  /** By reddit thing fullname (`t3_…`). */
  readonly redditVotes = new Map<string, RedditVotes>();
}

export function isRetired(store: InsightsStore, host: string, metric: string): boolean {
  return store.retired.has(`${host} ${metric}`) || store.retired.has(`* ${metric}`);
}
