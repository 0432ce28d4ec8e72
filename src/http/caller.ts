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

/**
 * A bearer the API accepts only on requests made inside this process (an MCP tool call runs its
 * route through inject): such requests carry `header` with this process's random `secret`, which
 * never leaves it, so the same bearer sent from outside is refused.
 */
export interface InternalBearer {
  accepts(token: string): boolean;
  authenticator: Authenticator;
  header: string;
  secret: string;
}
