// Everything Bluesky does after a post is published, as the adapter's capability members:
// comments (read, reply, hide, like, delete), mentions and metrics. `entryway` resolves the
// @handles of a reply's text to DIDs for its mention facets, as publishing does.
import type { PlatformAdapter } from '../types.ts';
import { blueskyComments } from './comments.ts';
import { blueskyAccountInsights, blueskyInsights } from './insights.ts';
import { blueskyMentions } from './mentions.ts';
import type { Xrpc } from './xrpc.ts';

type Engagement = Required<Pick<PlatformAdapter, 'commentReader' | 'commentWriter' | 'commentHider' | 'commentLiker' | 'commentRemover' | 'mentionReader' | 'postInsights' | 'accountInsights'>>;

export function blueskyEngagement(api: Xrpc, entryway: string): Engagement {
  const comments = blueskyComments(api, entryway);
  return {
    commentReader: comments.reader,
    commentWriter: comments.writer,
    commentHider: comments.hider,
    commentLiker: comments.liker,
    commentRemover: comments.remover,
    mentionReader: blueskyMentions(api),
    postInsights: blueskyInsights(api),
    accountInsights: blueskyAccountInsights(api),
  };
}
