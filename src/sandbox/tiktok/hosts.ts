// www.tiktok.com (the authorize page, and the page of each public post), open.tiktokapis.com
// (OAuth, user info, Content Posting API) and open-upload.tiktokapis.com (FILE_UPLOAD chunks).
import { Host } from '../core/router.ts';
import { registerConsent } from '../oauth/consent.ts';
import { tiktokHostErrors } from './envelope.ts';
import { contentInit, inboxVideoInit, videoInit } from './init.ts';
import { tiktokConsent, tiktokRevoke, tiktokToken } from './login.ts';
import { registerTikTokPostPages } from './post-page.ts';
import { creatorInfo, userInfo } from './profile.ts';
import { videoList } from './videos.ts';
import { videoQuery } from './video-query.ts';
import { statusFetch } from './status.ts';
import { uploadChunk } from './upload.ts';

export function tiktokHosts(): Host[] {
  const web = new Host('www.tiktok.com', tiktokHostErrors);
  registerConsent(web, '/v2/auth/authorize', tiktokConsent);
  registerTikTokPostPages(web);
  const api = new Host('open.tiktokapis.com', tiktokHostErrors)
    .post('/v2/oauth/token', tiktokToken)
    .post('/v2/oauth/revoke', tiktokRevoke)
    .get('/v2/user/info', userInfo)
    .post('/v2/post/publish/creator_info/query', creatorInfo)
    .post('/v2/post/publish/video/init', videoInit)
    .post('/v2/post/publish/inbox/video/init', inboxVideoInit)
    .post('/v2/post/publish/content/init', contentInit)
    .post('/v2/post/publish/status/fetch', statusFetch)
    .post('/v2/video/list', videoList)
    .post('/v2/video/query', videoQuery);
  const upload = new Host('open-upload.tiktokapis.com', tiktokHostErrors).put('/video', uploadChunk);
  return [web, api, upload];
}
