// The WhatsApp Business capability (contract "WhatsApp", DESIGN "WhatsApp"): the connected
// number's record and registration (platforms.md §7.3), message templates of its business
// account (§7.5) and media (§7.2). Pure platform knowledge like every adapter member: Cloud API
// calls with the account's credentials, PlatformError from the WhatsApp error table
// (errors.ts), no database, no clock. Re-exported by types.ts.
import type { Readable } from 'node:stream';
import type { AccountCredentials } from '../types.ts';

/** The number as the Cloud API describes it (GET /{phone-number-id}?fields=…). */
export interface WhatsAppPhoneNumber {
  id: string;
  displayPhoneNumber: string | null;
  verifiedName: string | null;
  /** GREEN, YELLOW, RED, UNKNOWN (NA on some numbers). */
  qualityRating: string | null;
  /** TIER_50 … TIER_UNLIMITED. */
  messagingLimitTier: string | null;
  /** Onboarding: code verification, display-name review, connection status, API host, mode. */
  codeVerificationStatus: string | null;
  nameStatus: string | null;
  status: string | null;
  platformType: string | null;
  accountMode: string | null;
}

export interface WhatsAppTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  /** The components as the Cloud API has them (HEADER, BODY, FOOTER, BUTTONS). */
  components: unknown[];
  parameterFormat: string | null;
  /** GREEN, YELLOW, RED, UNKNOWN; null when the platform gave none. */
  qualityScore: string | null;
  rejectedReason: string | null;
  previousCategory: string | null;
}

export interface TemplateFilter {
  status?: string | undefined;
  /** Templates whose name contains this text (the Cloud API's own filter). */
  name?: string | undefined;
  category?: string | undefined;
  language?: string | undefined;
  limit: number;
  /** The platform's cursor from the previous page; null for the first. */
  after: string | null;
}

export interface NewTemplate {
  name: string;
  language: string;
  category: string;
  components: unknown[];
  parameterFormat?: 'POSITIONAL' | 'NAMED' | undefined;
}

export interface WhatsAppMediaInfo {
  id: string;
  mimeType: string | null;
  sha256: string | null;
  fileSize: number | null;
  /** The short-lived download URL (5 minutes), fetched with the account's token. */
  url: string;
}

export interface MediaBytes {
  body: Readable;
  mimeType: string;
  /** Known in advance for a stored file; null for a stream of unknown length. */
  size: number | null;
  fileName: string | null;
}

export interface MediaDownload {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  contentLength: number | null;
}

export interface WhatsAppBusiness {
  phoneNumber(credentials: AccountCredentials): Promise<WhatsAppPhoneNumber>;
  /** Registers (or re-registers) the number with its two-step PIN. */
  register(credentials: AccountCredentials, pin: string): Promise<void>;

  listTemplates(credentials: AccountCredentials, filter: TemplateFilter): Promise<{ templates: WhatsAppTemplate[]; after: string | null }>;
  /** Submits a template for review: its id and status (PENDING). */
  createTemplate(credentials: AccountCredentials, template: NewTemplate): Promise<{ id: string; status: string; category: string }>;
  /** Null when the account's business account has no such template (another WABA's under the same token included). */
  getTemplate(credentials: AccountCredentials, templateId: string): Promise<WhatsAppTemplate | null>;
  /** One language (by its id) or, with templateId null, every language of the name. */
  deleteTemplate(credentials: AccountCredentials, input: { name: string; templateId: string | null }): Promise<void>;

  /** Streams the bytes to the number's media endpoint; the WhatsApp media id. */
  uploadMedia(credentials: AccountCredentials, media: MediaBytes): Promise<string>;
  /** Null when no such media is visible to the account. */
  mediaInfo(credentials: AccountCredentials, mediaId: string): Promise<WhatsAppMediaInfo | null>;
  /** The bytes behind a media URL, streamed, with the account's token. */
  downloadMedia(credentials: AccountCredentials, url: string): Promise<MediaDownload>;
  /** False when no such media is visible to the account. */
  deleteMedia(credentials: AccountCredentials, mediaId: string): Promise<boolean>;

  /** Sends one message in the Cloud API's shape (`to`, `type`, the type's object, `context`). */
  sendMessage(credentials: AccountCredentials, message: Record<string, unknown>): Promise<{ platformMessageId: string; waId: string | null }>;
  /** Marks a received message read, with the typing indicator when `typing`. */
  markRead(credentials: AccountCredentials, messageId: string, typing: boolean): Promise<void>;
}
