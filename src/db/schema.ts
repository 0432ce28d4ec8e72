// Row types of every table, as Kysely sees them. Times are epoch milliseconds (integers on
// both stores: the application's clock decides "now", so tests can move it); booleans are 0/1;
// JSON is stored as text. The same shapes on SQLite and PostgreSQL keep one query code for both.
import type { Generated, Insertable, Selectable } from 'kysely';

export type Flag = 0 | 1;

export interface OrganizationsTable {
  id: string;
  name: string;
  approval_required: Flag;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  name: string;
  /** SHA-256 of the whole key, hex: the only form of the secret that is kept. */
  key_hash: string;
  /** The first characters of the key, shown in listings so people can tell keys apart. */
  prefix: string;
  /** Requests per minute; null means the service default. */
  rate_limit: number | null;
  approval_required: Flag;
  created_at: number;
  revoked_at: number | null;
}

export interface AccountsTable {
  id: string;
  organization_id: string;
  platform: string;
  platform_user_id: string;
  username: string | null;
  display_name: string | null;
  avatar_url: string | null;
  external_id: string | null;
  status: 'active' | 'needs_reconnect';
  approval_required: Flag;
  /** AES-256-GCM sealed tokens (see lib/crypto.ts); never stored in clear. */
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: number | null;
  scopes: string;
  /** Platform-specific details (page ids, business account ids …), JSON. */
  metadata: string;
  connected_at: number;
  updated_at: number;
}

export type JobStatus = 'pending' | 'running' | 'failed';

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON; ids only, the truth lives in the domain rows. */
  payload: string;
  status: JobStatus;
  /** When a pending job is due. */
  run_at: number;
  attempts: Generated<number>;
  max_attempts: number;
  /** The lease of a running job: another worker may take it once this has passed. */
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  /** At most one pending or running job per key (e.g. one refresh per account). */
  dedupe_key: string | null;
  /** The worker lane that claims it (its kind's lane when enqueued). */
  lane: Generated<string>;
  created_at: number;
  updated_at: number;
}

export type MediaStorage = 'local' | 's3';

export interface MediaTable {
  id: string;
  organization_id: string;
  /** The post that last used this media's publicUrl. */
  post_id: string | null;
  file_name: string;
  mime_type: string;
  size: number;
  /** Which store holds the bytes. */
  storage: MediaStorage;
  /** The object's name in its store: unguessable, the last segment of its public URL. */
  storage_key: string;
  created_at: number;
  /** Since when no post references it; null while one does. Read by media.cleanup. */
  unreferenced_since: number | null;
}

export interface EventsTable {
  id: string;
  organization_id: string;
  type: string;
  /** JSON of the event's data, as delivered. */
  data: string;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: string;
  organization_id: string;
  url: string;
  /** JSON array of subscribed event names. */
  events: string;
  /** The signing secret, sealed like platform tokens (it must be read back to sign). */
  secret_enc: string;
  created_at: number;
  /** 0: nothing is sent to it (its deliveries fail without an attempt until it is enabled). */
  enabled: Generated<Flag>;
  /** The secret a rotation replaced, sealed; deliveries are signed with it too until it expires. */
  previous_secret_enc: string | null;
  previous_secret_expires_at: number | null;
}

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  /** Also the X-Idempotency-Key: the same on every retry and redelivery. */
  id: string;
  organization_id: string;
  webhook_id: string;
  event_id: string;
  status: DeliveryStatus;
  /** Attempts in the current cycle (a redelivery starts a new cycle). */
  attempts: number;
  next_attempt_at: number | null;
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  /** 1, 2, 3 … over the delivery's whole life, across redeliveries. */
  seq: number;
  started_at: number;
  duration_ms: number;
  response_status: number | null;
  error: string | null;
}

export type PostStatus = 'draft' | 'scheduled' | 'pending_approval' | 'queued' | 'publishing' | 'published' | 'partial' | 'failed' | 'rejected';
export type TargetStatus = 'pending' | 'publishing' | 'published' | 'failed';

export interface PostsTable {
  id: string;
  organization_id: string;
  content: string;
  status: PostStatus;
  scheduled_for: number | null;
  /** Set when an approver accepted the post; cleared when its content changes. */
  approved_at: number | null;
  rejected_reason: string | null;
  /** Who approved or rejected the post last (a dashboard user's email, `dashboard` or `cli`); migration 0019. */
  reviewed_by: Generated<string | null>;
  /** When that review happened; migration 0019. */
  reviewed_at: Generated<number | null>;
  /** The key that created the post (for the record; approval is decided per request). */
  api_key_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface PostTargetsTable {
  id: string;
  post_id: string;
  organization_id: string;
  /** Index in the request's `platforms`: the delivery order. */
  position: number;
  account_id: string;
  platform: string;
  /** JSON: platformSpecificData as the client sent it (validated again when content changes). */
  input: string;
  /** JSON: the validated platformSpecificData keys that apply (skipped keys are in warnings). */
  options: string;
  /** JSON array of {key, message}. */
  warnings: string;
  status: TargetStatus;
  attempts: number;
  /** When its next delivery step is due (first attempt, retry or processing check); null before release. */
  next_attempt_at: number | null;
  /** 1 once the next target was released after this one's first attempt. */
  released_next: Flag;
  /** JSON: platform ids of the steps done so far (containers, publish ids), so a retry resumes. */
  progress: string;
  platform_post_id: string | null;
  url: string | null;
  error: string | null;
  published_at: number | null;
  /** reddit: when its comments are next polled (null, the default: not yet); migration 0014. */
  comment_poll_at: Generated<number | null>;
  updated_at: number;
}

export interface PostRequestsTable {
  organization_id: string;
  /** The x-request-id header. */
  key: string;
  /** SHA-256 of the canonical request body. */
  body_hash: string;
  status: 'running' | 'done';
  post_id: string | null;
  created_at: number;
}

/** The idempotency key of an operation that writes to a platform (migration 0023, http/idempotency.ts). */
export interface RequestKeysTable {
  organization_id: string;
  /** The x-request-id header. */
  key: string;
  /** The operationId the key was first used with. */
  operation: string;
  /** SHA-256 of the canonical operation, path parameters, query and body. */
  request_hash: string;
  /** running; done (the answer is stored); interrupted (ended after a platform call whose outcome is unknown). */
  status: 'running' | 'done' | 'interrupted';
  /** Random per claim: only the request holding the key writes its row. */
  owner: string;
  answer_status: number | null;
  /** The answer's JSON, as sent. */
  answer_body: string | null;
  /** When the first platform write began (the marker); null while none has. */
  call_started_at: number | null;
  /** When the latest platform write began. */
  last_call_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ConnectStatesTable {
  /** SHA-256 (hex) of the OAuth state; the state itself is never stored. */
  state_hash: string;
  organization_id: string;
  platform: string;
  /** The login flavour (instagram: `instagram` or `facebook`). */
  flavour: string;
  external_id: string | null;
  redirect_url: string | null;
  created_at: number;
  expires_at: number;
  /** Set by the one callback that may use the state. */
  used_at: number | null;
  /** PKCE: the code verifier, sealed, for connectors that use PKCE (null for the others). */
  code_verifier_enc: string | null;
  /** A connect page's wrong sign-ins so far (the fifth spends the state). */
  failed_tries: Generated<number>;
}

/** A counter every node shares (platforms/counters.ts), per window: YouTube's daily quota. */
export interface SharedCountersTable {
  key: string;
  used: number;
  expires_at: number;
}

/** An account whose mentions are polled (a definition's pollMentions): when next, and since when a mention is new (migration 0031). */
export interface MentionPollsTable {
  account_id: string;
  /** When the account is due again, or how long a run holds it. */
  poll_at: number;
  /** Mentions made before this (the account's first connection) are not announced. */
  since: number;
  /** Where the next read starts: the platform's mark of the newest mention read (migration 0032). */
  mark: string | null;
}

export interface PendingConnectionsTable {
  id: string;
  organization_id: string;
  platform: string;
  flavour: string;
  external_id: string | null;
  redirect_url: string | null;
  /** The user token the options are resolved with, sealed; never shown. */
  user_token_enc: string;
  /** JSON array of the options ({id, name, kind, …}). */
  options: string;
  created_at: number;
  expires_at: number;
  completed_at: number | null;
}

export interface AccountHealthTable {
  account_id: string;
  organization_id: string;
  /** JSON of the health report as last computed. */
  report: string;
  checked_at: number;
}

export type PlatformWebhookStatus = 'pending' | 'unhandled' | 'processed';

export interface PlatformWebhookEventsTable {
  /** SHA-256 (hex) of the raw body. */
  id: string;
  /** `meta` (Pages, Instagram, WhatsApp share one callback). */
  family: string;
  object: string | null;
  /** The raw body, exactly as received and signed. */
  body: string;
  status: PlatformWebhookStatus;
  note: string | null;
  received_at: number;
  processed_at: number | null;
}

export type InboxEventKind = 'comment' | 'mention' | 'reply' | 'feed' | 'message' | 'other';

export interface InboxEventsTable {
  /** `evt_…`: also the outgoing event's id and its data's `eventId`. */
  id: string;
  organization_id: string;
  account_id: string;
  platform: string;
  kind: InboxEventKind;
  /** The platform's own id of the event (comment id …): unique per account and kind. */
  dedupe_key: string;
  /** JSON: the outgoing event's data (comment.received shape for comments, replies, mentions). */
  data: string;
  /** When the service received the platform's webhook. */
  received_at: number;
}

export type SnapshotStage = '1h' | '24h' | '7d' | 'refresh';

/** Insights of a published target as read at one stage (migration 0012). */
export interface AnalyticsSnapshotsTable {
  target_id: string;
  stage: SnapshotStage;
  organization_id: string;
  account_id: string;
  /** The target's, copied: best time groups by it. */
  published_at: number;
  taken_at: number;
  /** JSON {metric: number}. */
  metrics: string;
  /** JSON array of metric names. */
  unsupported: string;
  /** JSON array of {metric: string | null, message, code?}. */
  errors: string;
  engagement: number;
  /** 1 on the target's newest row. */
  latest: Flag;
}

export type AdObjectKind = 'ad_account' | 'campaign' | 'adset' | 'creative' | 'ad' | 'audience';

/** An ad object the organization created or read through the service (migration 0018). */
export interface AdObjectsTable {
  organization_id: string;
  /** Meta's id (`act_…` for ad accounts). */
  platform_id: string;
  kind: AdObjectKind;
  /** The facebook account it was reached through. */
  account_id: string;
  /** `act_…`: its ad account (itself for an ad account). */
  ad_account_id: string;
  /** Campaign of an ad set, ad set of an ad; null otherwise. */
  parent_id: string | null;
  created_here: Flag;
  created_at: number;
  updated_at: number;
}

/** The Facebook user token of a facebook Page account, sealed; ads act with it (migration 0018). */
export interface AccountUserTokensTable {
  account_id: string;
  organization_id: string;
  token_enc: string;
  expires_at: number | null;
  scopes: string;
  updated_at: number;
}

/** A connected WhatsApp number's record as last read from the Cloud API (migration 0013). */
export interface WhatsAppNumbersTable {
  account_id: string;
  organization_id: string;
  waba_id: string;
  phone_number_id: string;
  /** JSON of the record the API shows; null until first read. */
  record: string | null;
  refreshed_at: number | null;
  /** The two-step PIN last registered with, sealed (lib/crypto.ts). */
  pin_enc: string | null;
}

/** A single-use dashboard sign-in link, kept as the SHA-256 of its token (migration 0019). */
export interface DashboardLinksTable {
  token_hash: string;
  organization_id: string;
  email: string | null;
  created_at: number;
  expires_at: number;
  /** Set by the one visit that may use it. */
  used_at: number | null;
}

/** A dashboard browser session, kept as the SHA-256 of its cookie (migration 0019). */
export interface DashboardSessionsTable {
  id: string;
  token_hash: string;
  organization_id: string;
  email: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** A remote MCP client, registered by itself (RFC 7591); approved_at is set by its first approval. */
export interface McpClientsTable {
  id: string;
  client_name: string | null;
  /** JSON array of the exact redirect URIs the client registered. */
  redirect_uris: string;
  /** JSON of the registered metadata, as the registration answered it. */
  metadata: string;
  created_at: number;
  approved_at: number | null;
  /** The source address of the registration (an IPv6 one as its /64), which its cap counts by. */
  registered_from: string | null;
}

/** A connection a person approved in the dashboard: one client acting for one organization. */
export interface McpGrantsTable {
  id: string;
  organization_id: string;
  client_id: string;
  approved_by: string | null;
  resource: string;
  scope: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface McpCodesTable {
  /** SHA-256 of the authorization code, hex. */
  code_hash: string;
  client_id: string;
  organization_id: string;
  approved_by: string | null;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The grant its exchange made, so that a replay of the code can revoke it. */
  grant_id: string | null;
}

export interface McpTokensTable {
  /** SHA-256 of the access or refresh token, hex. */
  token_hash: string;
  grant_id: string;
  kind: 'access' | 'refresh';
  created_at: number;
  expires_at: number;
  /** Set when revoked, or (a refresh token) when spent by rotation. */
  revoked_at: number | null;
}

export type ConversationStatus = 'active' | 'archived';
export type MessageDirection = 'inbound' | 'outbound';
export type MessageStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface ConversationsTable {
  /** `conv_…` */
  id: string;
  organization_id: string;
  account_id: string;
  platform: string;
  /** The platform's thread id; null until a sync has seen it. */
  platform_conversation_id: string | null;
  /** The person: a PSID, an IGSID (a WhatsApp number later). */
  participant_id: string;
  participant_username: string | null;
  participant_name: string | null;
  status: ConversationStatus;
  /** Inbound messages not yet marked read. */
  unread: number;
  last_message_at: number;
  last_message_text: string | null;
  /** The person's last message: the messaging windows count from it. */
  last_inbound_at: number | null;
  /** A send is in flight until then: its echo waits. */
  sending_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface MessagesTable {
  /** `msg_…` */
  id: string;
  organization_id: string;
  account_id: string;
  conversation_id: string;
  direction: MessageDirection;
  /** Unique per account. */
  platform_message_id: string | null;
  text: string | null;
  /** JSON array of {type, url}. */
  attachments: string;
  status: MessageStatus;
  sent_at: number;
  /** The person's reaction (emoji); null when none. */
  reaction: string | null;
  /** JSON {title, payload} of a postback; null otherwise. */
  postback: string | null;
  /** Why the message failed ("131026: Message undeliverable …"); null otherwise (migration 0020). */
  error: string | null;
  created_at: number;
}

export interface ConversationSyncsTable {
  account_id: string;
  organization_id: string;
  synced_at: number;
}

export interface Database {
  conversations: ConversationsTable;
  messages: MessagesTable;
  conversation_syncs: ConversationSyncsTable;
  dashboard_links: DashboardLinksTable;
  dashboard_sessions: DashboardSessionsTable;
  mcp_clients: McpClientsTable;
  mcp_grants: McpGrantsTable;
  mcp_codes: McpCodesTable;
  mcp_tokens: McpTokensTable;
  ad_objects: AdObjectsTable;
  account_user_tokens: AccountUserTokensTable;
  analytics_snapshots: AnalyticsSnapshotsTable;
  inbox_events: InboxEventsTable;
  connect_states: ConnectStatesTable;
  shared_counters: SharedCountersTable;
  mention_polls: MentionPollsTable;
  pending_connections: PendingConnectionsTable;
  account_health: AccountHealthTable;
  platform_webhook_events: PlatformWebhookEventsTable;
  posts: PostsTable;
  post_targets: PostTargetsTable;
  post_requests: PostRequestsTable;
  request_keys: RequestKeysTable;
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
  jobs: JobsTable;
  media: MediaTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  whatsapp_numbers: WhatsAppNumbersTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type AccountRow = Selectable<AccountsTable>;
export type NewAccountRow = Insertable<AccountsTable>;
export type JobRow = Selectable<JobsTable>;
export type MediaRow = Selectable<MediaTable>;
export type EventRow = Selectable<EventsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type PostRow = Selectable<PostsTable>;
export type PostTargetRow = Selectable<PostTargetsTable>;
export type InboxEventRow = Selectable<InboxEventsTable>;
export type ConversationRow = Selectable<ConversationsTable>;
export type MessageRow = Selectable<MessagesTable>;
export type PendingConnectionRow = Selectable<PendingConnectionsTable>;
