// www.linkedin.com (the consent page, the token and introspection endpoints, the signed upload
// URLs and the page of each post) and api.linkedin.com (/v2/userinfo and the versioned /rest API).
import { Host } from '../core/router.ts';
import { registerConsent } from '../oauth/consent.ts';
import { networkSize, organization, organizationAcls, userinfo } from './api.ts';
import { createComment, deleteComment, listComments } from './comments.ts';
import { linkedinHostErrors } from './errors.ts';
import { linkedinAccessToken, linkedinConsent, linkedinIntrospect } from './login.ts';
import { initializeSingle, readAsset, upload, videosAction } from './media.ts';
import { registerLinkedInPostPages } from './post-page.ts';
import { shareStatistics } from './statistics.ts';
import { createPost, deletePost, postsByAuthor, readPost, updatePost } from './posts.ts';

export function linkedinHosts(): Host[] {
  const www = new Host('www.linkedin.com', linkedinHostErrors);
  registerConsent(www, '/oauth/v2/authorization', linkedinConsent);
  www.post('/oauth/v2/accessToken', linkedinAccessToken).post('/oauth/v2/introspectToken', linkedinIntrospect);
  www.put('/dms-uploads/sp/:id/uploaded', upload);
  registerLinkedInPostPages(www);
  const api = new Host('api.linkedin.com', linkedinHostErrors)
    .get('/v2/userinfo', userinfo)
    .get('/rest/organizationAcls', organizationAcls)
    .get('/rest/organizations/:id', organization)
    .get('/rest/networkSizes/:urn', networkSize)
    .get('/rest/organizationalEntityShareStatistics', shareStatistics)
    .post('/rest/posts', createPost)
    .get('/rest/posts', postsByAuthor)
    .get('/rest/posts/:urn', readPost)
    .post('/rest/posts/:urn', updatePost)
    .delete('/rest/posts/:urn', deletePost)
    .post('/rest/socialActions/:urn/comments', createComment)
    .get('/rest/socialActions/:urn/comments', listComments)
    .delete('/rest/socialActions/:urn/comments/:id', deleteComment)
    .post('/rest/images', initializeSingle('image'))
    .get('/rest/images/:urn', readAsset('image'))
    .post('/rest/documents', initializeSingle('document'))
    .get('/rest/documents/:urn', readAsset('document'))
    .post('/rest/videos', videosAction)
    .get('/rest/videos/:urn', readAsset('video'));
  return [www, api];
}
