// x mentions (platforms/x.md, reads; DESIGN "Comments and inbox", the x row): others' posts that
// name the account, from GET /2/users/{id}/mentions with their authors, and one mentioning post by
// id. Both are paid reads: without X_READS=1 they are refused before any call, naming the setting.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { list, obj, str, text } from '../json.ts';
import type { MentionReader, PlatformMention } from '../comments-types.ts';
import { postUrl } from '../post-url.ts';
import { xBody } from './errors.ts';

const API = 'https://api.x.com/2';

const refused = () => new PlatformError('not_supported', 'X mentions are paid reads: set X_READS=1 to list them', { platform: 'x' });

export function xMentions(http: PlatformHttp, reads: boolean): MentionReader {
  return {
    async mentions(account, limit) {
      if (!reads) throw refused();
      const query = { max_results: Math.min(100, Math.max(5, limit)), 'tweet.fields': 'author_id,created_at', expansions: 'author_id', 'user.fields': 'username' };
      const body = xBody(await http.send('x', { url: `${API}/users/${account.platformUserId}/mentions`, query, bearer: account.accessToken }));
      const users = new Map(list(obj(body.includes).users).map(obj).map((u) => [text(u.id), str(u.username) ?? null]));
      return list(body.data)
        .map(obj)
        .slice(0, limit)
        .map((item): PlatformMention => {
          const id = text(item.id);
          const username = users.get(text(item.author_id)) ?? null;
          const created = Date.parse(text(item.created_at));
          return {
            mediaId: id,
            platform: 'x',
            caption: str(item.text) ?? null,
            mediaType: null,
            permalink: postUrl(http, `https://x.com/${username ?? 'i/web'}/status/${id}`, 'https://x.com'),
            username,
            createdAt: Number.isNaN(created) ? null : created,
          };
        });
    },
    async mentioned(account, ref) {
      if (!reads) throw refused();
      const body = xBody(await http.send('x', { url: `${API}/tweets/${ref.commentId ?? ref.mediaId}`, query: { expansions: 'author_id', 'user.fields': 'username' }, bearer: account.accessToken }));
      const users = list(obj(body.includes).users).map(obj);
      const data = obj(body.data);
      return { text: text(data.text), username: str(users.find((u) => text(u.id) === text(data.author_id))?.username) ?? null };
    },
  };
}
