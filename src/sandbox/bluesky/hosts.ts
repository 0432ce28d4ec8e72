// bsky.app (the web app: a post's page, the app-passwords settings page), bsky.social (the entryway and the PDS of every sandbox account, which also answers the app.bsky.*
// reads it proxies to the AppView), plc.directory (DID documents) and video.bsky.app.
import { Host } from '../core/router.ts';
import { registerAppPasswordsPage } from './app-passwords-page.ts';
import { uploadBlob } from './blobs.ts';
import { plcHostErrors, xrpcHostErrors } from './errors.ts';
import { plcDocument, resolveHandle } from './identity.ts';
import { registerBlueskyPostPages } from './post-page.ts';
import { listNotifications, updateSeen } from './notifications.ts';
import { getAuthorFeed, getPosts, getPostThread, getProfile } from './reads.ts';
import { createRecord, deleteRecord, getRecord, listRecords, putRecord } from './records.ts';
import { getServiceAuth } from './service-auth.ts';
import { createSession, deleteSession, getSession, refreshSession } from './sessions.ts';
import { getJobStatus, getUploadLimits, uploadVideo } from './video.ts';

export function blueskyHosts(): Host[] {
  const pds = new Host('bsky.social', xrpcHostErrors)
    .get('/xrpc/com.atproto.identity.resolveHandle', resolveHandle)
    .post('/xrpc/com.atproto.server.createSession', createSession)
    .post('/xrpc/com.atproto.server.refreshSession', refreshSession)
    .get('/xrpc/com.atproto.server.getSession', getSession)
    .post('/xrpc/com.atproto.server.deleteSession', deleteSession)
    .get('/xrpc/com.atproto.server.getServiceAuth', getServiceAuth)
    .post('/xrpc/com.atproto.repo.createRecord', createRecord)
    .post('/xrpc/com.atproto.repo.putRecord', putRecord)
    .post('/xrpc/com.atproto.repo.deleteRecord', deleteRecord)
    .get('/xrpc/com.atproto.repo.getRecord', getRecord)
    .get('/xrpc/com.atproto.repo.listRecords', listRecords)
    .post('/xrpc/com.atproto.repo.uploadBlob', uploadBlob)
    .get('/xrpc/app.bsky.feed.getPostThread', getPostThread)
    .get('/xrpc/app.bsky.feed.getPosts', getPosts)
    .get('/xrpc/app.bsky.feed.getAuthorFeed', getAuthorFeed)
    .get('/xrpc/app.bsky.actor.getProfile', getProfile)
    .get('/xrpc/app.bsky.notification.listNotifications', listNotifications)
    .post('/xrpc/app.bsky.notification.updateSeen', updateSeen);
  const plc = new Host('plc.directory', plcHostErrors).get('/:did', plcDocument);
  const video = new Host('video.bsky.app', xrpcHostErrors)
    .get('/xrpc/app.bsky.video.getUploadLimits', getUploadLimits)
    .post('/xrpc/app.bsky.video.uploadVideo', uploadVideo)
    .get('/xrpc/app.bsky.video.getJobStatus', getJobStatus);
  const web = new Host('bsky.app', xrpcHostErrors);
  registerBlueskyPostPages(web);
  registerAppPasswordsPage(web);
  return [web, pds, plc, video];
}
