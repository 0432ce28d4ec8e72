// reddit publishing (platforms.md §6.2): one POST /api/submit, self or link, with flair. The title
// is the `title` option, or else the content's first line (and the text is then the rest).
// A single step: there is no first-step id to store, so nothing to resume.
import type { PlatformHttp } from '../http.ts';
import type { PublishRequest, Publisher } from '../publisher.ts';
import { redditEnvelopeError, redditHttpError } from './publish-errors.ts';

const SUBMIT = 'https://oauth.reddit.com/api/submit';

interface SubmitAnswer {
  json?: { errors?: Array<[string, string, string]>; data?: { url?: string; name?: string; id?: string } };
}

/** Title and text of a self post: an explicit title keeps the whole content as the text. */
export function redditTitleAndText(content: string, title: unknown): { title: string; text: string } {
  if (typeof title === 'string' && title.trim()) return { title, text: content };
  const [first = '', ...rest] = content.split('\n');
  return { title: first.trim(), text: rest.join('\n').trim() };
}

/** `userAgent`: reddit throttles generic agents, so every call names the app (§6.2). */
export function redditPublisher(http: PlatformHttp, userAgent: string): Publisher {
  return {
    platform: 'reddit',
    async publish({ account, content, options }: PublishRequest) {
      const { title, text } = redditTitleAndText(content, options.title);
      const url = typeof options.url === 'string' ? options.url : undefined;
      const form = {
        api_type: 'json',
        sr: String(options.subreddit),
        kind: url ? 'link' : 'self',
        title,
        ...(url ? { url } : { text }),
        ...(typeof options.flairId === 'string' ? { flair_id: options.flairId } : {}),
      };
      const res = await http.send('reddit', { method: 'POST', url: SUBMIT, form, headers: { authorization: `bearer ${account.accessToken}`, 'user-agent': userAgent } });
      if (res.status !== 200) throw redditHttpError(res.status);
      const body = res.body as SubmitAnswer;
      const errors = body.json?.errors ?? [];
      if (errors.length) throw redditEnvelopeError(errors);
      const data = body.json?.data;
      if (!data?.name) throw redditHttpError(502);
      return { status: 'published', platformPostId: data.name, url: data.url ?? null };
    },
  };
}
