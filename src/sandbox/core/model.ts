// The records the sandbox keeps in memory. Platform-specific stores (Threads containers, TikTok
// publishes, reddit things) and people (Facebook users and Pages, TikTok creators, reddit users)
// live beside their platform; these are the shared ones: apps, authorization codes and tokens.

/**
 * The OAuth flavours the sandbox serves, one per module that has one, named after it
 * (`instagram` is Instagram Login, platforms.md §2.2): each such module adds its entry
 * (`declare module '../core/model.ts' { interface OAuthPlatforms { tiktok: true } }`) and sets
 * `oauth: true` on its descriptor (the type and the runtime list, SandboxState.oauthPlatforms).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the modules
export interface OAuthPlatforms {}
export type OAuthPlatform = Extract<keyof OAuthPlatforms, string>;

export interface AppRecord {
  platform: OAuthPlatform;
  clientId: string;
  /** null: not configured; the first secret presented at a code exchange is bound to the app. */
  clientSecret: string | null;
  /** null: any redirect_uri; the one given at authorize time must still match at exchange. */
  redirectUris: string[] | null;
  name: string;
  /** TikTok: audited clients may post publicly (platforms.md §5.3). */
  audited: boolean;
}

export type RevokeReason = 'logout' | 'deauthorized' | 'password_changed';

export interface TokenRecord {
  value: string;
  platform: OAuthPlatform;
  /** `page`: a Facebook Page token; `app`: an app token; `refresh`: a refresh token. */
  type: 'user' | 'page' | 'app' | 'refresh';
  clientId: string;
  /** The person (or Page, for page tokens) the token acts as. */
  subjectId: string;
  /** For page tokens, the Facebook user who granted it. */
  userId: string;
  scopes: string[];
  declined: string[];
  /** Facebook: the Pages granted at consent (granular scopes' target_ids). */
  pageIds: string[];
  issuedAt: number;
  expiresAt: number | null;
  longLived: boolean;
  revoked: RevokeReason | null;
  /** The other half of an access/refresh pair (TikTok, reddit). */
  pairedWith: string | null;
}

export interface AuthorizationCode {
  code: string;
  platform: OAuthPlatform;
  clientId: string;
  redirectUri: string;
  subjectId: string;
  scopes: string[];
  declined: string[];
  pageIds: string[];
  issuedAt: number;
  expiresAt: number;
  used: boolean;
  /** reddit `duration=permanent` gives a refresh token. */
  permanent: boolean;
  codeChallenge: string | null;
}

export interface ConsentChoice {
  decision: 'allow' | 'deny';
  /** Which sandbox person consents; default: the first of the platform. */
  subjectId?: string | undefined;
  /** Scopes granted; default: all asked. The others are declined. */
  scopes?: string[] | undefined;
  /** Facebook: the Pages granted; default: all of the user's. */
  pageIds?: string[] | undefined;
}

/** An authorize request shown on a consent page, waiting for Allow or Cancel. */
export interface PendingAuthorization {
  id: string;
  platform: OAuthPlatform;
  clientId: string;
  redirectUri: string;
  state: string | null;
  scopes: string[];
  permanent: boolean;
  codeChallenge: string | null;
  createdAt: number;
}
