// www.reddit.com (authorize, tokens, and the page of each post its permalinks open) and
// oauth.reddit.com (the API).
import { Host } from '../core/router.ts';
import { registerConsent } from '../oauth/consent.ts';
import { comment, del, editUserText, info, linkFlair, me, submitted } from './api.ts';
import { commentTree, moreChildren } from './comments.ts';
import { redditHostErrors } from './errors.ts';
import { redditAccessToken, redditConsent, redditRevoke } from './login.ts';
import { registerRedditPostPages } from './post-page.ts';
import { submit } from './submit.ts';

export function redditHosts(): Host[] {
  const www = new Host('www.reddit.com', redditHostErrors);
  registerConsent(www, '/api/v1/authorize', redditConsent);
  registerConsent(www, '/api/v1/authorize.compact', redditConsent);
  www.post('/api/v1/access_token', redditAccessToken).post('/api/v1/revoke_token', redditRevoke);
  registerRedditPostPages(www);
  const api = new Host('oauth.reddit.com', redditHostErrors)
    .get('/api/v1/me', me)
    .post('/api/submit', submit)
    .post('/api/comment', comment)
    .post('/api/editusertext', editUserText)
    .post('/api/del', del)
    .get('/api/info', info)
    .get('/user/:name/submitted', submitted)
    .get('/comments/:article', commentTree)
    .get('/api/morechildren', moreChildren)
    .get('/r/:sr/comments/:article', commentTree)
    .get('/r/:sr/api/info', info)
    .get('/r/:sr/api/link_flair_v2', linkFlair);
  return [www, api];
}
