// What a platform adapter can do, as separate small capability interfaces. An adapter is a
// record of the capabilities its platform offers (built in each platform's index.ts, listed in
// registry.ts); a missing capability means the platform does not offer the feature (the API
// answers 400 not_supported). Adapters are pure platform knowledge: they take credentials and
// inputs, call the platform through PlatformHttp, and throw PlatformError; they never touch the
// database, the environment or the clock beyond the `now` they are given, and never sleep or
// retry. Modules reach them through `deps.platforms`; nothing here imports from modules/.
import type { PlatformApps } from './context.ts';
import type { CommentHider, CommentLiker, CommentReader, CommentRemover, CommentThreads, CommentWriter, MentionReader } from './comments-types.ts';
import type { AccountInsightsReader, DemographicsReader, OnlineFollowersReader, PostInsightsReader } from './insights-types.ts';
import type { CommentsSwitch, PostEditor, PostRemover, Publisher } from './publishing-types.ts';
import type { Messaging } from './messaging-types.ts';
import type { OptionsOf } from './target-options.ts';
import type { WhatsAppBusiness } from './whatsapp/capability.ts';
import type { AdsCapability } from './ads-types.ts';

export type * from './publishing-types.ts';
export type * from './comments-types.ts';
export type * from './insights-types.ts';
export type * from './whatsapp/capability.ts';
export type * from './messaging-types.ts';
export type * from './ads-types.ts';

/**
 * The names of the platforms accounts can be connected on. Empty here: each platform's index.ts
 * adds its own (`declare module '../types.ts' { interface PlatformNames { reddit: true } }`), and
 * registry.ts lists the definitions, so a platform is named only in its folder and the registry.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each platform's index.ts
export interface PlatformNames {}
export type Platform = Extract<keyof PlatformNames, string>;

/** Tokens as the platform gave them, with times turned into epoch milliseconds. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** null: the token does not expire (Facebook Page tokens, reddit has none without refresh). */
  expiresAt: number | null;
  /** The permissions granted, as the platform names them. */
  scopes: string[];
  /** When the refresh token itself ends, where the platform says (LinkedIn: 365 days from consent, never extended). */
  refreshExpiresAt?: number | null;
}

/** Who the connected account is on the platform. */
export interface PlatformProfile {
  platformUserId: string;
  username: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  /** Platform details later calls need (login flavour, Page id, business account id …). */
  metadata: Record<string, unknown>;
  /**
   * Accounts that act with one platform token (LinkedIn: a member and the organizations they post
   * for): connecting one updates the token of every account of the organization in the same group.
   */
  tokenGroup?: string;
}

export interface ConnectedAccount {
  profile: PlatformProfile;
  token: TokenSet;
  /** facebook Pages: the person's own (user) token, which ads need; a Page token cannot manage ad accounts. */
  userToken?: TokenSet;
}

/** One thing the person may pick when a consent yields several (a Facebook Page …). */
export interface ConnectOption {
  id: string;
  name: string;
  /** What the option is: `page`, `instagram_account`. */
  kind: string;
  username?: string | null;
  pictureUrl?: string | null;
}

/** The result of an OAuth callback: one account, or a choice to make first. */
export type ConnectOutcome =
  | { kind: 'account'; account: ConnectedAccount }
  /** `nothing`: what the person reads when `options` is empty (nothing_granted), in the platform's words. */
  | { kind: 'choices'; userToken: TokenSet; options: ConnectOption[]; nothing?: string };

/** The stored credentials of a connected account, as adapters receive them. */
export interface AccountCredentials {
  platformUserId: string;
  accessToken: string;
  refreshToken: string | null;
  /** When the access token expires, as last stored; null: it does not. */
  expiresAt: number | null;
  scopes: string[];
  metadata: Record<string, unknown>;
}

/** A string detail of an account's metadata ('' when absent). */
export function metaString(metadata: Record<string, unknown>, key: string): string {
  const value = metadata[key];
  return typeof value === 'string' ? value : '';
}

/** OAuth connect: the authorize URL and what the callback's code turns into. */
export interface OAuthConnector {
  /** The login flavour (`instagram` has `instagram` and `facebook`); stored in account metadata. */
  readonly flavour: string;
  /** Errors the platform's authorize page sends back when the person cancels, beside OAuth's `access_denied` (LinkedIn: `user_cancelled_authorize`). */
  readonly cancelErrors?: readonly string[];
  /**
   * PKCE (RFC 7636, S256): the service makes a verifier per connection, keeps it sealed with the
   * state, passes its challenge to authorizeUrl and the verifier to complete.
   */
  readonly pkce?: true;
  /** The URL the person's browser is sent to (already rewritten onto the sandbox if any). */
  authorizeUrl(input: { state: string; redirectUri: string; codeChallenge?: string }): string;
  /**
   * A page the service shows before the platform's authorize page (WhatsApp's embedded signup):
   * GET /connect/{platform} answers its URL, and its one button leads to authorizeUrl.
   */
  readonly landing?: ConnectLanding;
  /** Code exchange, long-lived upgrade where the platform has one, and the profile. */
  complete(input: { code: string; redirectUri: string; now: number; codeVerifier?: string }): Promise<ConnectOutcome>;
}

/** What an OAuth connector's landing page shows. Plain text everywhere: the page escapes it. */
export interface ConnectLanding {
  /** The page's title and heading. */
  title: string;
  /** Paragraphs above the button. */
  intro: readonly string[];
  /** The label of the button that leads to the platform's authorize page. */
  button: string;
}

/**
 * A connect flow through a page the service hosts, for a platform whose sign-in is not an OAuth
 * consent (Bluesky's app passwords): GET /connect/{platform} answers the page's URL, the page asks
 * for the fields, and its submit is completed here. What the person types is used for this one
 * call and never stored.
 */
export interface PageConnector {
  /** The login flavour; stored in account metadata like an OAuth connector's. */
  readonly flavour: string;
  readonly page: ConnectPage;
  /**
   * Signs in with what the person typed. A ConnectRefusal (errors.ts) shows the page again with its
   * message and counts as a wrong try; any other PlatformError ends the connection as a callback's would.
   */
  complete(input: { fields: Record<string, string>; now: number }): Promise<ConnectOutcome>;
}

/** What a PageConnector's page shows. Plain text everywhere: the page escapes it. */
export interface ConnectPage {
  title: string;
  /** Paragraphs above the form. */
  intro: readonly string[];
  fields: readonly ConnectPageField[];
  /** The submit button's label. */
  submit: string;
  /** Where the person gets what the page asks for (the platform's settings page). */
  help?: { text: string; url: string };
}

export interface ConnectPageField {
  /** The form field's name, and the key of `fields` in complete(). */
  name: string;
  label: string;
  /** A password input, never echoed back when the page is shown again. */
  secret?: true;
  /** The browser's autocomplete hint (`username`, `current-password`). */
  autocomplete?: string;
  placeholder?: string;
  maxLength: number;
}

/** Turns options of a pending connection into accounts, with the user token kept for it. */
export interface ChoiceResolver {
  /** `userToken`: the consent's access token; `token`: its whole set (a refresh token the accounts keep, when the platform gave one). */
  resolve(input: { userToken: string; token: TokenSet; optionIds: string[]; now: number }): Promise<ConnectedAccount[]>;
}

/** Refreshes a token before it expires (TikTok, reddit, Instagram Login, Threads). */
export interface TokenRefresher {
  refresh(credentials: AccountCredentials, now: number): Promise<TokenSet>;
}

/** The platform's own view of a token. */
export interface TokenInspection {
  valid: boolean;
  expiresAt: number | null;
  /** Granted permissions, as the platform reports them now. */
  scopes: string[];
  /** false: this account's token cannot be refreshed (no refresh token was given), so health warns before it expires. */
  refreshable?: boolean;
  /** What the platform's rules add to the recommendations (a date by which the person must consent again …). */
  notes?: string[];
  /** The account's username as the platform names it now, when the check reads it (a Bluesky handle can change): the stored one follows it. */
  username?: string | null;
}

export interface HealthChecker {
  inspect(credentials: AccountCredentials, now: number): Promise<TokenInspection>;
  /** Feature → the permissions it needs; what is not granted becomes missingPermissions. */
  features(credentials: AccountCredentials): Record<string, string[]>;
}

export interface PublishingLimit {
  used: number;
  allowed: number;
  windowHours: number;
}

export interface PublishingLimitReader {
  publishingLimit(credentials: AccountCredentials): Promise<PublishingLimit>;
}

/**
 * A publishing limit the platform does not report (X_DAILY_POST_LIMIT): the service counts the
 * account's posts it published in the window from its own rows, and answers and enforces that.
 */
export interface CountedPublishingLimit {
  allowed: number;
  windowHours: number;
}

/** Reads one of the definition's accountResources for the account: the 200 answer's body. */
export type AccountResourceReader = (credentials: AccountCredentials) => Promise<unknown>;

/** Where platforms send webhooks: our callback and the token its handshake must echo. */
export interface WebhookCallback {
  url: string;
  verifyToken: string;
}

export interface SubscriptionResult {
  /** The fields the account is now subscribed to. */
  fields: string[];
  /** True when the app-level subscription (`/{app-id}/subscriptions`) had to be created or extended. */
  appSubscriptionUpdated: boolean;
}

export interface WebhookSubscriber {
  subscribe(credentials: AccountCredentials, callback: WebhookCallback): Promise<SubscriptionResult>;
}

/** WhatsApp numbers connected with an existing token (POST /whatsapp/connect). */
export interface WhatsAppNumbers {
  /**
   * Checks the token against the number and its business account (valid, granted on the
   * business account, the number is one of its numbers): the account to store.
   */
  checkToken(input: { accessToken: string; wabaId: string; phoneNumberId: string }): Promise<ConnectedAccount>;
  /** Registers the number for the Cloud API with its two-step PIN. */
  register(input: { accessToken: string; phoneNumberId: string; pin: string }): Promise<void>;
}

/**
 * Everything one platform offers: a record of capability objects, each its own small interface.
 * A capability the platform lacks is absent. New features (comments, messages, templates,
 * insights, ads …) are new members of this record, each with its own interface.
 */
/** `P`: the platform, which types the options its publisher receives. */
export interface PlatformAdapter<P extends Platform = Platform> {
  platform: P;
  /** OAuth connect flows by flavour; the first is the default. */
  connectors: OAuthConnector[];
  /** A connect flow through a page the service hosts, used when the platform has no OAuth connector (connectors is empty). */
  pageConnector?: PageConnector;
  choices?: ChoiceResolver;
  refresher?: TokenRefresher;
  health?: HealthChecker;
  limits?: PublishingLimitReader;
  countedLimit?: CountedPublishingLimit;
  webhooks?: WebhookSubscriber;
  publisher?: Publisher<OptionsOf<P>>;
  editor?: PostEditor;
  remover?: PostRemover;
  commentsSwitch?: CommentsSwitch;
  /** Comments (comments-types.ts): each family only where the platform has it. */
  commentReader?: CommentReader;
  commentWriter?: CommentWriter;
  commentThreads?: CommentThreads;
  commentHider?: CommentHider;
  commentLiker?: CommentLiker;
  commentRemover?: CommentRemover;
  mentionReader?: MentionReader;
  /** Insights (insights-types.ts): each only where the platform has it. */
  postInsights?: PostInsightsReader;
  accountInsights?: AccountInsightsReader;
  demographics?: DemographicsReader;
  onlineFollowers?: OnlineFollowersReader;
  /** Direct messages (messaging-types.ts): instagram and facebook Messenger. */
  messaging?: Messaging;
  numbers?: WhatsAppNumbers;
  /** WhatsApp: the number's record and registration, templates, media (whatsapp/capability.ts). */
  whatsapp?: WhatsAppBusiness;
  /** Ads through the Marketing API (ads-types.ts): facebook. */
  ads?: AdsCapability;
  /** The readers of the definition's accountResources, by name. */
  accountResources?: Readonly<Record<string, AccountResourceReader>>;
}

/** What modules get as `deps.platforms`: every adapter, built once at start, and the shared platform settings they need. */
export interface Platforms {
  readonly adapters: { readonly [P in Platform]: PlatformAdapter<P> };
  /** The adapter of a stored platform name; null for a name no adapter serves. */
  of(name: string): PlatformAdapter | null;
  /** The platform apps' credentials (null: not configured); Meta webhook signatures are made with their secrets. */
  readonly apps: PlatformApps;
  /** The token Meta's webhook verification handshake must echo ('' when none is set). */
  readonly metaWebhookVerifyToken: string;
}
