// The rest of the Data API the service uses (youtube.md §3, §6): channels.list?mine=true,
// thumbnails.set (a verified channel's video, JPEG/PNG ≤ 2 MB), playlists and playlistItems
// (a playlist of the caller's channel), each charged its units.
import type { RouteContext } from '../core/router.ts';
import { isRawBody } from '../core/body.ts';
import { obj } from '../core/control.ts';
import { sniff } from '../media/sniff.ts';
import { actingChannel, charge, MANAGE, READ, youtubeAuth } from './auth.ts';
import { badRequest, googleError } from './errors.ts';
import type { YouTubePlaylist } from './store.ts';
import { ownVideo, partsOf } from './videos.ts';

const THUMBNAIL_MAX = 2 * 1024 * 1024;

/** GET /youtube/v3/channels?part=…&mine=true (1 unit). */
export function listChannels(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, READ);
  const parts = partsOf(ctx);
  charge(ctx, caller, 1);
  if (ctx.query.mine !== 'true' && !ctx.query.id) throw badRequest('missingRequiredParameter', 'No filter selected. Expected one of: mine, id, forHandle, managedByMe');
  const channels = ctx.query.mine === 'true' ? caller.channels : (ctx.query.id ?? '').split(',').map((id) => ctx.state.people.youtubeChannels.get(id)).filter((c) => c !== undefined);
  const items = channels.map((c) => {
    const videos = [...ctx.state.youtube.videos.values()].filter((v) => v.channelId === c.id && !v.deleted);
    return {
      kind: 'youtube#channel',
      id: c.id,
      ...(parts.includes('snippet') ? { snippet: { title: c.title, description: c.description, customUrl: c.customUrl, thumbnails: { default: { url: c.thumbnailUrl, width: 88, height: 88 } } } } : {}),
      ...(parts.includes('statistics')
        ? { statistics: { viewCount: String(videos.reduce((n, v) => n + v.stats.viewCount, 0)), subscriberCount: String(c.subscriberCount), hiddenSubscriberCount: false, videoCount: String(videos.length) } }
        : {}),
      ...(parts.includes('status') ? { status: { privacyStatus: 'public', isLinked: true, longUploadsStatus: c.verified ? 'allowed' : 'eligible' } } : {}),
    };
  });
  return { kind: 'youtube#channelListResponse', pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items };
}

/** POST /upload/youtube/v3/thumbnails/set?videoId= (50 units): custom thumbnails need a verified channel. */
export function setThumbnail(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  charge(ctx, caller, 50);
  const channel = actingChannel(caller);
  const video = ownVideo(ctx, channel.id, ctx.query.videoId ?? '');
  if (!channel.verified) throw googleError(403, 'forbidden', 'The authenticated user doesnt have permissions for uploading and setting custom video thumbnails.');
  const body = isRawBody(ctx.body) ? ctx.body : null;
  if (!body || body.size === 0) throw badRequest('mediaBodyRequired', 'The request does not include the image content.');
  if (body.size > THUMBNAIL_MAX) throw badRequest('mediaBodyTooLarge', 'The image is larger than 2 MB.');
  const type = sniff(body.head);
  if (type?.mime !== 'image/jpeg' && type?.mime !== 'image/png') throw badRequest('invalidImage', 'The provided image content is invalid.');
  video.hasCustomThumbnail = true;
  return { kind: 'youtube#thumbnailSetResponse', items: [{ default: { url: `https://i.ytimg.com/vi/${video.id}/default.jpg`, width: 120, height: 90 } }] };
}

function ownPlaylist(ctx: RouteContext, channelId: string, id: string): YouTubePlaylist {
  const playlist = ctx.state.youtube.playlists.get(id);
  if (!playlist) throw googleError(404, 'playlistNotFound', 'The playlist identified with the request\'s playlistId parameter cannot be found.');
  if (playlist.channelId !== channelId) throw googleError(403, 'playlistItemsNotAccessible', 'The request is not properly authorized to insert the specified playlist item.');
  return playlist;
}

/** GET /youtube/v3/playlists?mine=true (1 unit). */
export function listPlaylists(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, READ);
  charge(ctx, caller, 1);
  const items = [...ctx.state.youtube.playlists.values()].filter((p) => caller.channels.some((c) => c.id === p.channelId)).map((p) => ({ kind: 'youtube#playlist', id: p.id, snippet: { title: p.title, channelId: p.channelId } }));
  return { kind: 'youtube#playlistListResponse', items, pageInfo: { totalResults: items.length, resultsPerPage: 50 } };
}

/** POST /youtube/v3/playlists (50 units). */
export function insertPlaylist(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  charge(ctx, caller, 50);
  const title = obj(obj(ctx.body).snippet).title;
  if (typeof title !== 'string' || !title) throw badRequest('playlistTitleRequired', 'The request must specify a playlist title.');
  const playlist: YouTubePlaylist = { id: `PL${ctx.state.ids.opaque('youtube-playlist', 32)}`, channelId: actingChannel(caller).id, title };
  ctx.state.youtube.playlists.set(playlist.id, playlist);
  return { kind: 'youtube#playlist', id: playlist.id, snippet: { title, channelId: playlist.channelId } };
}

/** POST /youtube/v3/playlistItems?part=snippet (50 units). */
export function insertPlaylistItem(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, MANAGE);
  partsOf(ctx);
  charge(ctx, caller, 50);
  const snippet = obj(obj(ctx.body).snippet);
  const playlistId = typeof snippet.playlistId === 'string' ? snippet.playlistId : '';
  if (!playlistId) throw badRequest('playlistIdRequired', 'The playlist item must specify a playlistId.');
  const playlist = ownPlaylist(ctx, actingChannel(caller).id, playlistId);
  const resourceId = obj(snippet.resourceId);
  const videoId = typeof resourceId.videoId === 'string' ? resourceId.videoId : '';
  const video = ctx.state.youtube.videos.get(videoId);
  if (resourceId.kind !== 'youtube#video' || !video || video.deleted) throw googleError(404, 'videoNotFound', 'The video that you are trying to add to the playlist cannot be found.');
  const position = [...ctx.state.youtube.playlistItems.values()].filter((i) => i.playlistId === playlist.id).length;
  const item = { id: ctx.state.ids.opaque('youtube-playlist-item', 44), playlistId: playlist.id, videoId, position };
  ctx.state.youtube.playlistItems.set(item.id, item);
  return { kind: 'youtube#playlistItem', id: item.id, snippet: { playlistId: playlist.id, position, resourceId: { kind: 'youtube#video', videoId } } };
}

/** GET /youtube/v3/playlistItems?playlistId=&videoId=&part= (1 unit). */
export function listPlaylistItems(ctx: RouteContext): unknown {
  const caller = youtubeAuth(ctx, READ);
  partsOf(ctx);
  charge(ctx, caller, 1);
  const playlist = ctx.state.youtube.playlists.get(ctx.query.playlistId ?? '');
  if (!playlist) throw googleError(404, 'playlistNotFound', 'The playlist identified with the request\'s playlistId parameter cannot be found.');
  const items = [...ctx.state.youtube.playlistItems.values()]
    .filter((i) => i.playlistId === playlist.id && (!ctx.query.videoId || i.videoId === ctx.query.videoId))
    .map((i) => ({ kind: 'youtube#playlistItem', id: i.id, snippet: { playlistId: i.playlistId, position: i.position, resourceId: { kind: 'youtube#video', videoId: i.videoId } } }));
  return { kind: 'youtube#playlistItemListResponse', items, pageInfo: { totalResults: items.length, resultsPerPage: 50 } };
}
