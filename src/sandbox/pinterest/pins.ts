// Pins (platforms/pinterest.md §3, §5): POST /v5/pins on a board of the caller (and a section
// of that board), with the field limits of the spec and one media source: an image Pinterest
// fetches from its URL, a carousel of 2–5 image URLs, or a video registered through /v5/media
// whose processing succeeded (with a cover image URL or key frame time). GET, PATCH (title,
// description, link, alt text, board, section) and DELETE of the caller's own Pins; another
// user's Pin is not found. Pin analytics answer the counts the control API sets.
import type { RouteContext } from '../core/router.ts';
import { fetchMedia } from '../media/fetch.ts';
import { pinterestAuth } from './auth.ts';
import { ownBoard, pinterestTime } from './boards.ts';
import { invalidField, notFound, pinterestError, trialRefused } from './errors.ts';
import { settle } from './media.ts';
import type { PinterestBoard, PinterestUser } from './people.ts';
import type { PinterestImage, PinterestPin } from './store.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

const LIMITS = { title: 100, description: 800, link: 2048, alt_text: 500 } as const;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff']);

export function pinView(ctx: RouteContext, pin: PinterestPin): Json {
  const owner = ctx.state.people.pinterestUsers.get(pin.ownerId);
  const images = pin.images.map((i) => ({ '600x': { url: i.url, width: 600, height: 900 } }));
  const media: Json =
    pin.kind === 'video'
      ? { media_type: 'video', cover_image_url: pin.cover?.url ?? null, duration: 0 }
      : pin.kind === 'carousel'
        ? { media_type: 'multiple_images', items: images.map((i) => ({ images: i })) }
        : { media_type: 'image', images: images[0] ?? {} };
  return {
    id: pin.id,
    created_at: pinterestTime(pin.createdAt),
    link: pin.link,
    title: pin.title,
    description: pin.description,
    alt_text: pin.altText,
    dominant_color: pin.dominantColor,
    board_id: pin.boardId,
    board_section_id: pin.sectionId,
    board_owner: { username: owner?.username ?? '' },
    media,
    creative_type: pin.kind === 'video' ? 'VIDEO' : pin.kind === 'carousel' ? 'CAROUSEL' : 'REGULAR',
    is_standard: true,
    has_been_promoted: false,
    is_owner: true,
  };
}

function optionalText(body: Json, field: keyof typeof LIMITS): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidField(field, 'must be a string');
  if ([...value].length > LIMITS[field]) throw invalidField(field, `must be at most ${LIMITS[field]} characters`);
  return value;
}

function linkOf(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || [...value].length > LIMITS.link) throw invalidField(field, `must be a URL of at most ${LIMITS.link} characters`);
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw invalidField(field, 'must be an http(s) URL');
  }
  return value;
}

function sectionOf(board: PinterestBoard, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw invalidField('board_section_id', 'must be a string of digits');
  if (!board.sections.some((s) => s.id === value)) throw notFound('Board section');
  return value;
}

/** Pinterest fetches each image: unreachable or not an image is a 400 naming the URL. */
async function fetchedImage(ctx: RouteContext, url: unknown, field: string): Promise<string> {
  if (typeof url !== 'string') throw invalidField(field, 'is required');
  const fetched = await ctx.state.track(fetchMedia(url, ctx.state.settings.media));
  if (!fetched.ok) throw pinterestError(400, 1, `Sorry, we could not fetch the image at ${field} (${url}): ${fetched.detail}.`);
  if (!IMAGE_TYPES.has(fetched.type?.mime ?? '')) throw pinterestError(400, 1, `${field} (${url}) is not an image Pinterest can use.`);
  return url;
}

async function mediaSource(ctx: RouteContext, user: PinterestUser, source: Json): Promise<Pick<PinterestPin, 'kind' | 'images' | 'mediaId' | 'cover'>> {
  const type = source.source_type;
  if (type === 'image_url') return { kind: 'image', images: [{ url: await fetchedImage(ctx, source.url, 'media_source.url'), title: null, description: null, link: null }], mediaId: null, cover: null };
  if (type === 'multiple_image_urls') {
    const items = source.items;
    if (!Array.isArray(items) || items.length < 2 || items.length > 5) throw invalidField('media_source.items', 'a carousel has 2 to 5 images');
    const images: PinterestImage[] = [];
    for (const [i, raw] of items.entries()) {
      const item = obj(raw);
      images.push({
        url: await fetchedImage(ctx, item.url, `media_source.items[${i}].url`),
        title: typeof item.title === 'string' ? item.title : null,
        description: typeof item.description === 'string' ? item.description : null,
        link: linkOf(item.link, `media_source.items[${i}].link`),
      });
    }
    return { kind: 'carousel', images, mediaId: null, cover: null };
  }
  if (type === 'video_id') {
    const id = typeof source.media_id === 'string' ? source.media_id : '';
    const media = ctx.state.pinterest.media.get(id);
    if (!media || media.ownerId !== user.id) throw invalidField('media_source.media_id', 'is not a media id of this user');
    if (media.used) throw invalidField('media_source.media_id', 'was already used by a Pin');
    const status = settle(ctx, media).status;
    if (status !== 'succeeded') throw pinterestError(400, 1, `Invalid parameters. media_source.media_id: the media is ${status}, not succeeded`);
    const coverUrl = source.cover_image_url;
    const keyFrame = source.cover_image_key_frame_time;
    if (coverUrl === undefined && keyFrame === undefined && source.cover_image_data === undefined) throw invalidField('media_source', 'a video Pin needs cover_image_url, cover_image_data or cover_image_key_frame_time');
    if (keyFrame !== undefined && (typeof keyFrame !== 'number' || keyFrame < 0)) throw invalidField('media_source.cover_image_key_frame_time', 'must be a number of seconds, 0 or more');
    const cover = { url: coverUrl === undefined ? null : await fetchedImage(ctx, coverUrl, 'media_source.cover_image_url'), keyFrameTime: typeof keyFrame === 'number' ? keyFrame : null };
    return { kind: 'video', images: [], mediaId: id, cover };
  }
  if (type === 'image_base64' || type === 'multiple_image_base64' || type === 'pin_url') throw invalidField('media_source.source_type', `${String(type)} is not simulated by the sandbox`);
  throw invalidField('media_source.source_type', 'must be one of image_url, image_base64, multiple_image_urls, multiple_image_base64, video_id');
}

/** POST /v5/pins. */
export async function createPin(ctx: RouteContext): Promise<unknown> {
  const { user } = pinterestAuth(ctx, ['boards:read', 'pins:write'], 'org_write');
  if (ctx.state.settings.pinterest.trial && ctx.host === 'api.pinterest.com') throw trialRefused();
  const body = obj(ctx.body);
  if (body.board_id === undefined) throw invalidField('board_id', 'is required');
  if (typeof body.board_id !== 'string') throw invalidField('board_id', 'must be a string of digits');
  const board = ownBoard(ctx, user, body.board_id);
  const sectionId = sectionOf(board, body.board_section_id);
  const title = optionalText(body, 'title');
  const description = optionalText(body, 'description');
  const altText = optionalText(body, 'alt_text');
  const link = linkOf(body.link, 'link');
  const color = body.dominant_color;
  if (color !== undefined && (typeof color !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(color))) throw invalidField('dominant_color', 'must be #RRGGBB');
  if (body.media_source === undefined) throw invalidField('media_source', 'is required');
  const source = await mediaSource(ctx, user, obj(body.media_source));
  if (altText !== null && source.kind === 'video') throw invalidField('alt_text', 'is for image Pins');
  const pin: PinterestPin = {
    id: ctx.state.ids.numeric('pinterest-pin', '9', 18),
    ownerId: user.id,
    boardId: board.id,
    sectionId,
    title,
    description,
    link,
    altText,
    dominantColor: typeof color === 'string' ? color : null,
    ...source,
    createdAt: ctx.state.clock.now(),
    deleted: false,
    metrics: { impressions: 0, saves: 0, pinClicks: 0, outboundClicks: 0, comments: 0, reactions: 0, videoViews: 0 },
  };
  if (pin.mediaId) {
    const media = ctx.state.pinterest.media.get(pin.mediaId);
    if (media) media.used = true;
  }
  ctx.state.pinterest.pins.set(pin.id, pin);
  void ctx.reply.status(201);
  return pinView(ctx, pin);
}

function ownPin(ctx: RouteContext, user: PinterestUser): PinterestPin {
  const id = ctx.params.pin_id ?? '';
  if (!/^\d+$/.test(id)) throw invalidField('pin_id', 'must be a string of digits');
  const pin = ctx.state.pinterest.pins.get(id);
  if (!pin || pin.deleted || pin.ownerId !== user.id) throw notFound('Pin');
  return pin;
}

/** GET /v5/pins/{pin_id}. */
export function getPin(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['boards:read', 'pins:read'], 'org_read');
  const pin = ownPin(ctx, user);
  const view = pinView(ctx, pin);
  if (ctx.query.pin_metrics === 'true') view.pin_metrics = pinMetrics(pin);
  return view;
}

/** PATCH /v5/pins/{pin_id}. */
export function updatePin(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['boards:read', 'boards:write', 'pins:read', 'pins:write'], 'org_write');
  const pin = ownPin(ctx, user);
  const body = obj(ctx.body);
  const known = new Set(['title', 'description', 'link', 'alt_text', 'board_id', 'board_section_id', 'carousel_slots', 'note']);
  const unknown = Object.keys(body).find((k) => !known.has(k));
  if (unknown) throw invalidField(unknown, 'is not a field of a Pin update');
  let board = ctx.state.people.pinterestBoards.get(pin.boardId);
  if (body.board_id !== undefined) {
    if (typeof body.board_id !== 'string') throw invalidField('board_id', 'must be a string of digits');
    board = ownBoard(ctx, user, body.board_id);
  }
  const sectionId = board && body.board_section_id !== undefined ? sectionOf(board, body.board_section_id) : body.board_id !== undefined ? null : pin.sectionId;
  if (body.title !== undefined) pin.title = optionalText(body, 'title');
  if (body.description !== undefined) pin.description = optionalText(body, 'description');
  if (body.alt_text !== undefined) pin.altText = optionalText(body, 'alt_text');
  if (body.link !== undefined) pin.link = linkOf(body.link, 'link');
  if (board) pin.boardId = board.id;
  pin.sectionId = sectionId;
  return pinView(ctx, pin);
}

/** DELETE /v5/pins/{pin_id}: 204. */
export function deletePin(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['boards:read', 'pins:write'], 'org_write');
  const pin = ownPin(ctx, user);
  pin.deleted = true;
  return ctx.reply.status(204).send();
}

const METRIC_TYPES = new Set([
  'IMPRESSION', 'OUTBOUND_CLICK', 'PIN_CLICK', 'SAVE', 'SAVE_RATE', 'TOTAL_COMMENTS', 'TOTAL_REACTIONS', 'USER_FOLLOW', 'PROFILE_VISIT',
  'VIDEO_MRC_VIEW', 'VIDEO_10S_VIEW', 'QUARTILE_95_PERCENT_VIEW', 'VIDEO_V50_WATCH_TIME', 'VIDEO_START', 'VIDEO_AVG_WATCH_TIME',
]);

function lifetime(pin: PinterestPin): Record<string, number> {
  const m = pin.metrics;
  const values: Record<string, number> = {
    IMPRESSION: m.impressions,
    SAVE: m.saves,
    PIN_CLICK: m.pinClicks,
    OUTBOUND_CLICK: m.outboundClicks,
    TOTAL_COMMENTS: m.comments,
    TOTAL_REACTIONS: m.reactions,
    SAVE_RATE: m.impressions ? m.saves / m.impressions : 0,
  };
  if (pin.kind === 'video') values.VIDEO_MRC_VIEW = m.videoViews;
  return values;
}

/** `pin_metrics` of GET /v5/pins/{id}?pin_metrics=true: the last 90 days and the lifetime, in the API's lower-case names. */
function pinMetrics(pin: PinterestPin): Json {
  const m = pin.metrics;
  const counts: Record<string, number> = { impression: m.impressions, save: m.saves, pin_click: m.pinClicks, outbound_click: m.outboundClicks, clickthrough: m.outboundClicks, reaction: m.reactions, comment: m.comments };
  if (pin.kind === 'video') counts.video_mrc_view = m.videoViews;
  return { '90d': { impression: m.impressions, save: m.saves, pin_click: m.pinClicks, clickthrough: m.outboundClicks }, lifetime_metrics: counts };
}

const DAY_MS = 86_400_000;
const ANALYTICS_DAYS = 90;

/** GET /v5/pins/{pin_id}/analytics: the asked metrics over start_date..end_date (within 90 days back), the lifetime counts in the summary. */
export function pinAnalytics(ctx: RouteContext): unknown {
  const { user } = pinterestAuth(ctx, ['boards:read', 'pins:read'], 'org_analytics');
  const pin = ownPin(ctx, user);
  const dateOf = (field: 'start_date' | 'end_date') => {
    const value = ctx.query[field];
    if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw invalidField(field, 'is required, as YYYY-MM-DD');
    return Date.parse(value);
  };
  const start = dateOf('start_date');
  const end = dateOf('end_date');
  const today = Date.parse(new Date(ctx.state.clock.now()).toISOString().slice(0, 10));
  if (end < start) throw invalidField('end_date', 'must not be before start_date');
  if (start < today - ANALYTICS_DAYS * DAY_MS) throw invalidField('start_date', `must be within the last ${ANALYTICS_DAYS} days`);
  const types = (ctx.query.metric_types ?? '').split(',').filter(Boolean);
  if (!types.length) throw invalidField('metric_types', 'is required');
  const bad = types.find((t) => !METRIC_TYPES.has(t));
  if (bad) throw invalidField('metric_types', `${bad} is not a Pin metric`);
  const all = lifetime(pin);
  const asked = Object.fromEntries(types.filter((t) => t in all).map((t) => [t, all[t] ?? 0]));
  const created = Date.parse(new Date(pin.createdAt).toISOString().slice(0, 10));
  const daily = [];
  for (let day = start; day <= end; day += DAY_MS) {
    // The whole count on the day the Pin was made (the sandbox keeps no history), 0 elsewhere.
    daily.push({ date: new Date(day).toISOString().slice(0, 10), data_status: day > today ? 'PROCESSING' : 'READY', metrics: Object.fromEntries(Object.entries(asked).map(([k, v]) => [k, day === created ? v : 0])) });
  }
  return { all: { lifetime_metrics: asked, daily_metrics: daily, summary_metrics: asked } };
}
