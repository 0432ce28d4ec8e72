// Who is behind an API request, and how the auth hook finds out: http/ owns these shapes, the
// keys module implements them (modules/keys/index.ts), and the composition root hands that
// implementation to the app, so nothing in http/ reaches into a module.

export interface Caller {
  keyId: string;
  organizationId: string;
  rateLimit: number | null;
  /** Approval applies to posts made with this key (the key's or its organization's setting). */
  approvalRequired: boolean;
}

/** Finds the caller behind a bearer token; one per app, closed with it. */
export interface Authenticator {
  /** The caller behind `key`, or null for a malformed, unknown or revoked key. */
  authenticate(key: string): Promise<Caller | null>;
  close(): Promise<void>;
}
