// x mentions (platforms/x.md, reads; DESIGN "Comments and inbox", the x row): others' posts that
// name the account, from GET /2/users/{id}/mentions with their authors, and one mentioning post by
// id. Both are paid reads: without X_READS=1 they are refused before any call, naming the setting.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { list, obj, str, text } from '../json.ts';
import type { MentionReader, PlatformMention } from '../comments-types.ts';
import type { AccountCredentials } from '../types.ts';
import { postUrl } from '../post-url.ts';
import { xBody } from './errors.ts';
import { readXText } from './read-text.ts';
import { startTimeOf } from './start-time.ts';

const API = 'https://api.x.com/2';

const refused = () => new PlatformError('not_supported', 'X mentions are paid reads: set X_READS=1 to list them', { platform: 'x' });

/** The mentions timeline's largest page. */
const PAGE = 100;

/** One page of GET /2/users/{id}/mentions, newest first, with the token of the next (older) page. */
async function mentionPage(http: PlatformHttp, account: AccountCredentials, query: Record<string, string | number>): Promise<{ mentions: PlatformMention[]; next: string | null }> {
  const fields = { 'tweet.fields': 'author_id,created_at', expansions: 'author_id', 'user.fields': 'username' };
  const body = xBody(await http.send('x', { url: `${API}/users/${account.platformUserId}/mentions`, query: { ...query, ...fields }, bearer: account.accessToken }));
  const users = new Map(list(obj(body.includes).users).map(obj).map((u) => [text(u.id), str(u.username) ?? null]));
  const mentions = list(body.data)
    .map(obj)
    .map((item): PlatformMention => {
      const id = text(item.id);
      const username = users.get(text(item.author_id)) ?? null;
      const created = Date.parse(text(item.created_at));
      return {
        mediaId: id,
        platform: 'x',
        caption: str(item.text) === null ? null : readXText(text(item.text)),
        mediaType: null,
        permalink: postUrl(http, `https://x.com/${username ?? 'i/web'}/status/${id}`, 'https://x.com'),
        username,
        createdAt: Number.isNaN(created) ? null : created,
      };
    });
  return { mentions, next: str(obj(body.meta).next_token) ?? null };
}

export function xMentions(http: PlatformHttp, reads: boolean): MentionReader {
  return {
    async mentions(account, limit) {
      if (!reads) throw refused();
      const { mentions } = await mentionPage(http, account, { max_results: Math.min(PAGE, Math.max(5, limit)) });
      return mentions.slice(0, limit);
    },
    // The mark is the newest mention's post id, for since_id; before there is one, start_time.
    // Paged back with pagination_token (X pages at most the newest 800).
    async mentionsSince(account, { mark, time }, limit) {
      if (!reads) throw refused();
      const from: Record<string, string> = mark ? { since_id: mark } : { start_time: startTimeOf(time) };
      const found: PlatformMention[] = [];
      let next: string | null = null;
      do {
        const page = await mentionPage(http, account, { max_results: PAGE, ...from, ...(next ? { pagination_token: next } : {}) });
        found.push(...page.mentions);
        next = page.next;
      } while (next && found.length < limit);
      return { mentions: found.slice(0, limit), mark: found[0]?.mediaId ?? mark, truncated: next !== null || found.length > limit };
    },
    async mentioned(account, ref) {
      if (!reads) throw refused();
      const body = xBody(await http.send('x', { url: `${API}/tweets/${ref.commentId ?? ref.mediaId}`, query: { expansions: 'author_id', 'user.fields': 'username' }, bearer: account.accessToken }));
      const users = list(obj(body.includes).users).map(obj);
      const data = obj(body.data);
      return { text: readXText(text(data.text)), username: str(users.find((u) => text(u.id) === text(data.author_id))?.username) ?? null };
    },
  };
}
