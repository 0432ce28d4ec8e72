// The request journal: every request that reached a simulated platform, with secrets masked,
// so a test asserts what actually went out (issue 3, point 8).
export interface JournalEntry {
  seq: number;
  at: string;
  method: string;
  host: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  /** Authorization, User-Agent and Content-Type, masked. */
  headers: Record<string, string>;
  status: number;
}

export interface JournalFilter {
  host?: string | undefined;
  method?: string | undefined;
  /** Substring of the path. */
  path?: string | undefined;
  /** Only entries after this sequence number. */
  after?: number | undefined;
}

const SECRET_KEYS = new Set([
  'access_token',
  'client_secret',
  'refresh_token',
  'fb_exchange_token',
  'input_token',
  'code',
  'code_verifier',
  'token',
  'password',
  'pin',
  'appsecret_proof',
]);
const MAX_ENTRIES = 5000;

export function mask(value: string): string {
  return value.length > 12 ? `***${value.slice(-4)}` : '***';
}

/** Masks secret-named keys at any depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_KEYS.has(key) && typeof v === 'string' ? mask(v) : maskSecrets(v);
    }
    return out;
  }
  return value;
}

export function maskAuthorization(header: string): string {
  const [scheme, ...rest] = header.split(' ');
  return rest.length ? `${scheme ?? ''} ${mask(rest.join(' '))}` : mask(header);
}

export class Journal {
  #entries: JournalEntry[] = [];
  #seq = 0;

  record(entry: Omit<JournalEntry, 'seq' | 'query' | 'body'> & { query: unknown; body: unknown }): void {
    this.#entries.push({
      ...entry,
      seq: ++this.#seq,
      query: (maskSecrets(entry.query) ?? {}) as Record<string, unknown>,
      body: maskSecrets(entry.body),
    });
    if (this.#entries.length > MAX_ENTRIES) this.#entries.splice(0, this.#entries.length - MAX_ENTRIES);
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    return this.#entries.filter(
      (e) =>
        (!filter.host || e.host === filter.host) &&
        (!filter.method || e.method === filter.method.toUpperCase()) &&
        (!filter.path || e.path.includes(filter.path)) &&
        (filter.after === undefined || e.seq > filter.after),
    );
  }

  clear(): void {
    this.#entries = [];
  }
}
