// reddit publishing (platforms.md §6.2): one POST /api/submit, self or link, with flair. The title
// is the `title` option, or else the content's first line (and the text is then the rest).
// A single step with no id to store first: it is made once (create-once.ts), and an interrupted
// submit is looked for among the account's submissions before it is sent again.
import type { RedditOptions } from './options.ts';
import type { PlatformHttp } from '../http.ts';
import { createOnce, isWaiting } from '../create-once.ts';
import { confirmedLook } from '../look-back.ts';
import { postUrl } from '../post-url.ts';
import type { PublishProgress, PublishRequest, Publisher } from '../types.ts';
import { redditEnvelopeError, redditHttpError } from './errors.ts';

const API = 'https://oauth.reddit.com';
const SUBMIT = `${API}/api/submit`;

interface SubmitAnswer {
  json?: { errors?: Array<[string, string, string]>; data?: { url?: string; name?: string; id?: string } };
}

/** Title and text of a self post: an explicit title keeps the whole content as the text. */
export function redditTitleAndText(content: string, title: unknown): { title: string; text: string } {
  if (typeof title === 'string' && title.trim()) return { title, text: content };
  const [first = '', ...rest] = content.split('\n');
  return { title: first.trim(), text: rest.join('\n').trim() };
}

interface Link {
  platformPostId: string;
  url: string | null;
}

/** `userAgent`: reddit throttles generic agents, so every call names the app (§6.2). */
export function redditPublisher(http: PlatformHttp, userAgent: string): Publisher<RedditOptions> {
  return {
    async publish({ account, content, options, progress: saved, save, now, inFlightMs, isTaken }: PublishRequest<RedditOptions>) {
      const progress: PublishProgress = { ...saved };
      const headers = { authorization: `bearer ${account.accessToken}`, 'user-agent': userAgent };
      const { title, text } = redditTitleAndText(content, options.title);
      const subreddit = String(options.subreddit);
      const url = typeof options.url === 'string' ? options.url : undefined;
      const form = {
        api_type: 'json',
        sr: subreddit,
        kind: url ? 'link' : 'self',
        title,
        ...(url ? { url } : { text }),
        ...(typeof options.flairId === 'string' ? { flair_id: options.flairId } : {}),
      };
      const submitOnce = async (): Promise<Link> => {
        const res = await http.send('reddit', { method: 'POST', url: SUBMIT, form, headers });
        if (res.status !== 200) throw redditHttpError(res.status, res.headers);
        const body = res.body as SubmitAnswer;
        const errors = body.json?.errors ?? [];
        if (errors.length) throw redditEnvelopeError(errors);
        const data = body.json?.data;
        if (!data?.name) throw redditHttpError(502);
        return { platformPostId: data.name, url: data.url ?? null };
      };
      // reddit has no idempotency key: an interrupted submit is looked for among the account's
      // own submissions, by subreddit and title (create-once.ts), page after page (`after`).
      const find = async (since: number): Promise<Link | null> => {
        let seen = 0;
        const found = await confirmedLook<SubmittedLink, string>(since, {
          page: async (after) => {
            const query = { sort: 'new', limit: 100, raw_json: 1, ...(after ? { after, count: seen } : {}) };
            const res = await http.send('reddit', { method: 'GET', url: `${API}/user/${encodeURIComponent(account.username ?? '')}/submitted`, query, headers });
            if (res.status !== 200) throw redditHttpError(res.status, res.headers);
            const data = (res.body as Listing).data;
            const items = (data?.children ?? []).map((c) => c.data ?? {});
            seen += items.length;
            return { items, next: data?.after ?? null };
          },
          madeAt: (link) => (typeof link.created_utc === 'number' ? link.created_utc * 1000 : null),
          matches: async (link) => link.title === title && (link.subreddit ?? '').toLowerCase() === subreddit.toLowerCase() && !!link.name && !(await isTaken(link.name)),
        });
        // The listing's `url` is a link post's target; the post's own address is its permalink.
        return found?.name ? { platformPostId: found.name, url: found.permalink ?? found.url ?? null } : null;
      };
      const result = await createOnce({ platform: 'reddit', progress, store: () => save(progress), now, inFlightMs }, { key: 'submit', make: submitOnce, find });
      if (isWaiting(result)) return result;
      return { status: 'published', platformPostId: result.platformPostId, url: postUrl(http, result.url, 'https://www.reddit.com') };
    },
  };
}

interface SubmittedLink {
  name?: string;
  title?: string;
  subreddit?: string;
  created_utc?: number;
  url?: string;
  /** Relative: /r/{subreddit}/comments/{id}/{slug}/. */
  permalink?: string;
}

/** A reddit Listing: `after` is the fullname to ask the next page after, null on the last. */
interface Listing {
  data?: { after?: string | null; children?: Array<{ data?: SubmittedLink }> };
}
