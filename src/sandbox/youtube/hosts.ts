// accounts.google.com (the consent page), oauth2.googleapis.com (token, revoke), www.googleapis.com
// (the Data API and its upload paths), youtubeanalytics.googleapis.com (reports) and
// www.youtube.com (the page of each video).
import { Host } from '../core/router.ts';
import { registerConsent } from '../oauth/consent.ts';
import { reports } from './analytics.ts';
import { insertPlaylist, insertPlaylistItem, listChannels, listPlaylistItems, listPlaylists, setThumbnail } from './api.ts';
import { deleteComment, insertComment, insertThread, listComments, listThreads, setModerationStatus } from './comments.ts';
import { youtubeHostErrors } from './errors.ts';
import { googleConsent, googleRevoke, googleToken } from './login.ts';
import { registerYouTubePages } from './post-page.ts';
import { putUpload, startUpload } from './upload.ts';
import { deleteVideo, listVideos, updateVideo } from './videos.ts';

export function youtubeHosts(): Host[] {
  const accounts = new Host('accounts.google.com', youtubeHostErrors);
  registerConsent(accounts, '/o/oauth2/v2/auth', googleConsent);
  const oauth = new Host('oauth2.googleapis.com', youtubeHostErrors).post('/token', googleToken).post('/revoke', googleRevoke);
  const api = new Host('www.googleapis.com', youtubeHostErrors)
    .post('/upload/youtube/v3/videos', startUpload)
    .put('/upload/youtube/v3/videos', putUpload)
    .post('/upload/youtube/v3/thumbnails/set', setThumbnail)
    .get('/youtube/v3/channels', listChannels)
    .get('/youtube/v3/videos', listVideos)
    .put('/youtube/v3/videos', updateVideo)
    .delete('/youtube/v3/videos', deleteVideo)
    .get('/youtube/v3/playlists', listPlaylists)
    .post('/youtube/v3/playlists', insertPlaylist)
    .get('/youtube/v3/playlistItems', listPlaylistItems)
    .post('/youtube/v3/playlistItems', insertPlaylistItem)
    .get('/youtube/v3/commentThreads', listThreads)
    .post('/youtube/v3/commentThreads', insertThread)
    .get('/youtube/v3/comments', listComments)
    .post('/youtube/v3/comments/setModerationStatus', setModerationStatus)
    .post('/youtube/v3/comments', insertComment)
    .delete('/youtube/v3/comments', deleteComment);
  const analytics = new Host('youtubeanalytics.googleapis.com', youtubeHostErrors).get('/v2/reports', reports);
  const web = new Host('www.youtube.com', youtubeHostErrors);
  registerYouTubePages(web);
  return [accounts, oauth, api, analytics, web];
}
