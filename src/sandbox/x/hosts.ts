// x.com (the consent page) and api.x.com (tokens, users, posts, media).
import { Host } from '../core/router.ts';
import { registerConsent } from '../oauth/consent.ts';
import { hideReply, like, searchRecent, unlike } from './conversation.ts';
import { xHostErrors } from './errors.ts';
import { xConsent, xRevoke, xToken } from './login.ts';
import { append, finalize, initialize, metadata, oneShot, status } from './media.ts';
import { registerXPostPages } from './post-page.ts';
import { createPost, deletePost } from './posts.ts';
import { lookupPost, me, userMentions, userPosts } from './reads.ts';

export function xHosts(): Host[] {
  const web = new Host('x.com', xHostErrors);
  registerConsent(web, '/i/oauth2/authorize', xConsent);
  registerXPostPages(web);
  const api = new Host('api.x.com', xHostErrors)
    .post('/2/oauth2/token', xToken)
    .post('/2/oauth2/revoke', xRevoke)
    .get('/2/users/me', me)
    .get('/2/users/:id/tweets', userPosts)
    .get('/2/users/:id/mentions', userMentions)
    .post('/2/tweets', createPost)
    .get('/2/tweets/search/recent', searchRecent)
    .put('/2/tweets/:id/hidden', hideReply)
    .post('/2/users/:id/likes', like)
    .delete('/2/users/:id/likes/:tweet_id', unlike)
    .get('/2/tweets/:id', lookupPost)
    .delete('/2/tweets/:id', deletePost)
    .post('/2/media/upload/initialize', initialize)
    .post('/2/media/upload/:id/append', append)
    .post('/2/media/upload/:id/finalize', finalize)
    .get('/2/media/upload', status)
    .post('/2/media/upload', oneShot)
    .post('/2/media/metadata', metadata);
  return [web, api];
}
