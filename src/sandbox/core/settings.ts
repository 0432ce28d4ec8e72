// Everything a scenario may tune. Defaults follow platforms.md; where the platforms disagree
// with themselves (token lifetimes, quotas) the value is a setting, not a constant.
export interface SandboxSettings {
  /** How long asynchronous processing takes before a final status (ms of sandbox time). */
  processing: {
    threadsTextMs: number;
    threadsMediaMs: number;
    tiktokMs: number;
    /** Instagram containers (§2.3): images are fetched at creation, then processed. */
    instagramImageMs: number;
    instagramVideoMs: number;
    /** Facebook videos, Reels and video stories after their upload (§3.1). */
    facebookVideoMs: number;
  };
  /** Limits of the real downloads the sandbox makes for media URLs. */
  media: { maxBytes: number; timeoutMs: number };
  /** Lifetimes in seconds (platforms.md §1.5, §2.2, §4.1, §5.1, §6.1). */
  tokens: {
    facebookShort: number;
    facebookLong: number;
    instagramShort: number;
    instagramLong: number;
    threadsShort: number;
    threadsLong: number;
    tiktokAccess: number;
    tiktokRefresh: number;
    redditAccess: number;
    /** Authorization codes: 10 minutes (Facebook, reddit), 1 hour (Instagram, Threads). */
    codeFacebook: number;
    codeInstagram: number;
    codeThreads: number;
    codeTikTok: number;
    codeReddit: number;
  };
  limits: {
    threadsPosts: number;
    threadsReplies: number;
    threadsDeletes: number;
    tiktokInitPerMinute: number;
    tiktokStatusPerMinute: number;
    /** reddit: 100 queries a minute averaged over 10 minutes, per client id (§6.3). */
    redditRequestsPerWindow: number;
    redditWindowSeconds: number;
    /** Instagram API posts per rolling 24 h (§2.3: docs say 100, 50 or 25; read config.quota_total). */
    instagramPosts: number;
    /** Reels published through the API per Page per rolling 24 h (§3.1). */
    facebookReels: number;
  };
  tiktok: {
    /** URL prefixes verified for PULL_FROM_URL; null accepts every URL (§5.3). */
    verifiedUrlPrefixes: string[] | null;
  };
  instagram: {
    /** The code-exchange answer: flat `{access_token,user_id,permissions}` or wrapped in `data` (§2.2). */
    tokenResponseShape: 'flat' | 'data';
  };
  facebook: {
    /** Permissions a Facebook Login for Business `config_id` stands for. */
    configScopes: string[];
  };
  /** WhatsApp Cloud API (platforms.md §7): status progression, template review, window rule. */
  whatsapp: {
    /** A send is `sent`, then `delivered`, then `read` after these delays (null: never read). */
    sentMs: number;
    deliveredMs: number;
    readMs: number | null;
    /** Templates stay PENDING this long, then get `templateReviewOutcome`. */
    templateReviewMs: number;
    templateReviewOutcome: 'APPROVED' | 'REJECTED';
    /** Free-form sends outside the 24 h window: refused at once (`sync`) or failed by webhook. */
    windowErrorMode: 'sync' | 'webhook';
    /** Marketing templates one person may get per 24 h before 131049 (null: no cap). */
    marketingPerUserPerDay: number | null;
    /** How long a media download URL stays valid (§7.2: 5 minutes). */
    mediaUrlTtlSeconds: number;
  };
  /** Marketing API (platforms.md §9). */
  ads: {
    /** Ads are PENDING_REVIEW this long after they are created active. */
    reviewMs: number;
    /** Smallest daily budget, in minor units of the account's currency. */
    minDailyBudget: number;
    /** Calls per ad account in the usage window before throttling (X-Ad-Account-Usage at 100 %). */
    callsPerWindow: number;
    usageWindowSeconds: number;
    /** Refuse new ad sets without `targeting_automation.advantage_audience` (§9.2, unconfirmed). */
    requireAdvantageAudienceFlag: boolean;
  };
}

export function defaultSettings(): SandboxSettings {
  return {
    processing: { threadsTextMs: 0, threadsMediaMs: 2000, tiktokMs: 3000, instagramImageMs: 1000, instagramVideoMs: 5000, facebookVideoMs: 5000 },
    media: { maxBytes: 100 * 1024 * 1024, timeoutMs: 15_000 },
    tokens: {
      facebookShort: 5400,
      facebookLong: 5_184_000,
      instagramShort: 3600,
      instagramLong: 5_184_000,
      threadsShort: 3600,
      threadsLong: 5_184_000,
      tiktokAccess: 86_400,
      tiktokRefresh: 31_536_000,
      redditAccess: 3600,
      codeFacebook: 600,
      codeInstagram: 3600,
      codeThreads: 3600,
      codeTikTok: 600,
      codeReddit: 600,
    },
    limits: {
      threadsPosts: 250,
      threadsReplies: 1000,
      threadsDeletes: 100,
      tiktokInitPerMinute: 6,
      tiktokStatusPerMinute: 30,
      redditRequestsPerWindow: 1000,
      redditWindowSeconds: 600,
      instagramPosts: 100,
      facebookReels: 30,
    },
    tiktok: { verifiedUrlPrefixes: null },
    instagram: { tokenResponseShape: 'flat' },
    facebook: {
      configScopes: [
        'pages_show_list',
        'pages_manage_posts',
        'pages_read_engagement',
        'pages_manage_engagement',
        'business_management',
        'whatsapp_business_management',
        'whatsapp_business_messaging',
      ],
    },
    whatsapp: {
      sentMs: 0,
      deliveredMs: 1000,
      readMs: 5000,
      templateReviewMs: 2000,
      templateReviewOutcome: 'APPROVED',
      windowErrorMode: 'sync',
      marketingPerUserPerDay: null,
      mediaUrlTtlSeconds: 300,
    },
    ads: { reviewMs: 0, minDailyBudget: 100, callsPerWindow: 1000, usageWindowSeconds: 300, requireAdvantageAudienceFlag: false },
  };
}

export type SettingsPatch = { [K in keyof SandboxSettings]?: Partial<SandboxSettings[K]> };

/** Merges a patch group by group; unknown groups and keys are refused so typos do not pass. */
export function applySettings(settings: SandboxSettings, patch: SettingsPatch): void {
  for (const [group, values] of Object.entries(patch)) {
    if (!(group in settings)) throw new Error(`unknown settings group: ${group}`);
    const target = settings[group as keyof SandboxSettings] as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      if (!(key in target)) throw new Error(`unknown setting: ${group}.${key}`);
      target[key] = value;
    }
  }
}
