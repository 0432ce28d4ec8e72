// One thrown type for every platform-shaped failure. Each platform builds its own body (Graph
// error object, TikTok envelope, reddit's shapes); the plugin's error handler only sends it.
export class PlatformError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;

  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(`platform error ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** How a host words the failures the sandbox itself produces (faults, parse errors, 404s). */
export interface HostErrors {
  /** An unknown path on this host. */
  notFound(method: string, path: string): PlatformError;
  /** A request the host could not parse (bad JSON, bad form). */
  badRequest(message: string): PlatformError;
  /** A transient server failure (5xx fault, unexpected exception). */
  serverError(status: number): PlatformError;
  /** The host's standard rate-limit answer. */
  rateLimited(): PlatformError;
  /** A fault given as a code (Graph code/subcode, TikTok error.code, reddit status). */
  custom(fault: { status?: number | undefined; code?: string | number | undefined; subcode?: number | undefined; message?: string | undefined }): PlatformError;
}
