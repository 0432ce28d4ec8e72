// Calls to Google's YouTube APIs (youtube.md §6, §8, §9): every answer is classified by its status
// and `errors[0].reason`, never by its text, and every Data API call is charged to the project's
// daily quota, counted per Pacific day in the counters all nodes share (quotas reset at midnight Pacific Time): units for the
// methods, and videos.insert in its own bucket of uploads (plus YOUTUBE_UPLOAD_UNITS units under
// the older scheme, when set above 1). A call the day's quota cannot pay is not made: it fails
// `rate_limited` with the wait until the next Pacific midnight, as YouTube's 403 quotaExceeded
// does (which also marks the day spent for every node).
import type { SharedCounters } from '../counters.ts';
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformHttp, PlatformRequest, PlatformResponse } from '../http.ts';
import { list, obj, str, text, type Json } from '../json.ts';

export const DATA_API = 'https://www.googleapis.com/youtube/v3';
export const UPLOAD_API = 'https://www.googleapis.com/upload/youtube/v3';
export const ANALYTICS_API = 'https://youtubeanalytics.googleapis.com/v2';
export const GOOGLE_TOKEN = 'https://oauth2.googleapis.com/token';

export interface YouTubeSettings {
  /** YOUTUBE_DAILY_UPLOADS: videos.insert calls per project per Pacific day. */
  dailyUploads: number;
  /** YOUTUBE_DAILY_UNITS: units per project per Pacific day for the other methods. */
  dailyUnits: number;
  /** YOUTUBE_UPLOAD_UNITS: units an upload costs besides its own bucket (1: the current scheme; 1600: the older one). */
  uploadUnits: number;
  /** YOUTUBE_AUDITED=1: the API project passed YouTube's audit, so uploads keep their privacy. */
  audited: boolean;
}

const DAY_MS = 86_400_000;

const PACIFIC = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });

function pacificParts(ms: number): Record<string, number> {
  return Object.fromEntries(PACIFIC.formatToParts(ms).filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
}

/** The Pacific calendar day of a time, YYYY-MM-DD. */
export function pacificDay(ms: number): string {
  const p = pacificParts(ms);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** ms until the next midnight Pacific Time (YouTube's quota reset); exact across DST changes. */
export function untilPacificMidnight(now: number): number {
  const p = pacificParts(now);
  const elapsed = (((p.hour ?? 0) * 60 + (p.minute ?? 0)) * 60 + (p.second ?? 0)) * 1000 + (now % 1000);
  let wait = DAY_MS - elapsed;
  // A day of 23 or 25 hours: step to the hour the Pacific date actually changes.
  const today = pacificDay(now);
  while (pacificDay(now + wait) === today) wait += 3_600_000;
  while (wait > 3_600_000 && pacificDay(now + wait - 3_600_000) !== today) wait -= 3_600_000;
  return wait;
}

const QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded']);
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);
const PERMISSION_REASONS = new Set(['insufficientPermissions', 'forbidden', 'authenticatedUserAccountSuspended', 'authenticatedUserAccountClosed', 'youtubeSignupRequired', 'playlistItemsNotAccessible']);

/** The reason of a Google error body (`errors[0].reason`), if any. */
export const reasonOf = (body: unknown): string | null => str(obj(list(obj(obj(body).error).errors)[0]).reason) ?? null;

function kindOf(status: number, reason: string | null): PlatformErrorKind {
  if (status === 401) return 'auth';
  if (reason && (QUOTA_REASONS.has(reason) || RATE_REASONS.has(reason) || reason === 'uploadLimitExceeded')) return 'rate_limited';
  if (status === 429) return 'rate_limited';
  if (status === 403 && reason && PERMISSION_REASONS.has(reason)) return 'permission';
  if (status >= 500) return 'transient';
  if (status >= 400) return 'invalid';
  return 'permanent';
}

/** The body of a 2xx answer; any other answer throws its PlatformError (kind from the table of youtube.md §9). */
export function youtubeBody(response: PlatformResponse): Json {
  if (response.status >= 200 && response.status < 300) return obj(response.body);
  const body = obj(response.body);
  const reason = reasonOf(body) ?? str(body.error) ?? null;
  const message = text(obj(body.error).message) || text(body.error_description) || `HTTP ${response.status}`;
  // The token endpoint: a refresh token revoked, expired (6 months unused, 7 days in "Testing") or unknown.
  const kind = reason === 'invalid_grant' ? 'auth' : kindOf(response.status, reason);
  const details = { platform: 'youtube', status: response.status, ...(reason ? { code: reason } : {}) };
  throw new PlatformError(kind, message, details);
}

/**
 * The project's quota for the day, counted in the counters every node of the service shares (the
 * quota is the API project's, not a process's): units, uploads, each per Pacific day.
 */
export class QuotaMeter {
  readonly #settings: YouTubeSettings;
  readonly #counters: SharedCounters;

  constructor(settings: YouTubeSettings, counters: SharedCounters) {
    this.#settings = settings;
    this.#counters = counters;
  }

  /** The Pacific day last worked out: from `from` (a time in it) until `until` (its midnight). */
  #day: { name: string; from: number; until: number } | null = null;

  #keys(now: number) {
    // Working out the Pacific day (Intl, and a loop across DST) is kept until its midnight.
    let day = this.#day;
    if (!day || now < day.from || now >= day.until) {
      day = { name: pacificDay(now), from: now, until: now + untilPacificMidnight(now) };
      this.#day = day;
    }
    return { units: `youtube:units:${day.name}`, uploads: `youtube:uploads:${day.name}`, window: { now, expiresAt: day.until } };
  }

  #exhausted(now: number, what: string): PlatformError {
    return new PlatformError('rate_limited', `the YouTube API project's daily ${what} quota is used up (it resets at midnight Pacific Time); not called`, {
      platform: 'youtube',
      code: 'quotaExceeded',
      retryAfterMs: untilPacificMidnight(now),
    });
  }

  /** Takes `units` for a call, or throws rate_limited without calling. */
  async charge(units: number, now: number): Promise<void> {
    const { units: key, window } = this.#keys(now);
    if ((await this.#counters.take(key, units, this.#settings.dailyUnits, window)) === null) throw this.#exhausted(now, 'unit');
  }

  /** Takes one upload (and its units under the older scheme), or throws rate_limited without calling. */
  async chargeUpload(now: number): Promise<void> {
    const keys = this.#keys(now);
    if ((await this.#counters.take(keys.uploads, 1, this.#settings.dailyUploads, keys.window)) === null) throw this.#exhausted(now, 'upload');
    const units = this.#settings.uploadUnits > 1 ? this.#settings.uploadUnits : 0;
    if (units > 0 && (await this.#counters.take(keys.units, units, this.#settings.dailyUnits, keys.window)) === null) {
      await this.#counters.giveBack(keys.uploads, 1);
      throw this.#exhausted(now, 'upload');
    }
  }

  /** YouTube said quotaExceeded: nothing more is called today, by any node. */
  async spend(now: number): Promise<void> {
    const keys = this.#keys(now);
    await this.#counters.raise(keys.units, this.#settings.dailyUnits, keys.window);
    await this.#counters.raise(keys.uploads, this.#settings.dailyUploads, keys.window);
  }

  async uploads(now: number): Promise<number> {
    return this.#counters.read(this.#keys(now).uploads);
  }
}

export interface YouTubeCall extends Omit<PlatformRequest, 'bearer'> {
  token: string;
  /** The call's cost in units (youtube.md §6); 'upload' for videos.insert's start. */
  units: number | 'upload';
  /** The time the quota is counted at (the delivery's clock where there is one). */
  now?: number;
}

export interface YouTubeApi {
  readonly http: PlatformHttp;
  readonly settings: YouTubeSettings;
  readonly quota: QuotaMeter;
  /** A Data API call charged to the quota; the raw answer once it is a 2xx. */
  call(request: YouTubeCall): Promise<PlatformResponse>;
  json(request: YouTubeCall): Promise<Json>;
}

export function youtubeApi(http: PlatformHttp, settings: YouTubeSettings, counters: SharedCounters): YouTubeApi {
  const quota = new QuotaMeter(settings, counters);
  const call = async ({ token, units, now: at, ...request }: YouTubeCall): Promise<PlatformResponse> => {
    // Adapters are given no clock outside publishing: the process's time counts the day there.
    const now = at ?? Date.now();
    if (units === 'upload') await quota.chargeUpload(now);
    else await quota.charge(units, now);
    const response = await http.send('youtube', { ...request, bearer: token });
    if (response.status >= 200 && response.status < 300) return response;
    try {
      youtubeBody(response);
    } catch (error) {
      if (error instanceof PlatformError && error.details.code !== undefined && QUOTA_REASONS.has(String(error.details.code))) {
        await quota.spend(now);
        throw new PlatformError('rate_limited', `${error.message} (YouTube's daily quota; retried after midnight Pacific Time)`, { ...error.details, retryAfterMs: untilPacificMidnight(now) });
      }
      if (error instanceof PlatformError && error.details.code === 'uploadLimitExceeded') {
        throw new PlatformError('rate_limited', `${error.message} (the channel's daily upload limit; retried in 24 hours)`, { ...error.details, retryAfterMs: DAY_MS });
      }
      throw error;
    }
    return response;
  };
  return { http, settings, quota, call, json: async (request) => obj((await call(request)).body) };
}
