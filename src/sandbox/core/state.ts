// SandboxState: everything the simulated platforms know, in memory, plus the functions the
// control API exposes (seed, consent, expire/revoke, faults, settings, journal, clock, reset).
// Handlers close over one instance; reset() clears it in place so they keep working. With a
// `stateFile`, the state outlives the process (persistence.ts); without one it lives in memory.
// The shared parts (apps, people, codes and tokens, clock, faults, journal) are here; each
// platform's store comes from its module (module.ts), as a field named after the module
// (`state.threads`), built from the list the state is given (../modules.ts).
import { createSandboxClock, type SandboxClock } from './clock.ts';
import { FaultBook } from './faults.ts';
import { IdGenerator } from './ids.ts';
import { Journal } from './journal.ts';
import type {
  AppRecord,
  AuthorizationCode,
  ConsentChoice,
  OAuthPlatform,
  PendingAuthorization,
  RevokeReason,
  TokenRecord,
} from './model.ts';
import type { SandboxStores, StateModule } from './module.ts';
import { applySettings, defaultSettings, type SandboxSettings, type SettingsPatch } from './settings.ts';
import { People } from './people.ts';
import type { Clock } from '../../lib/clock.ts';
import { SandboxTimers } from './timers.ts';
import { SandboxPersistence } from './persistence.ts';

export interface AppConfig {
  platform: OAuthPlatform;
  clientId: string;
  clientSecret?: string | undefined;
  redirectUris?: string[] | undefined;
  name?: string | undefined;
  audited?: boolean | undefined;
}

export interface SandboxStateOptions {
  /** Seed for deterministic ids and tokens (default `sandbox`). */
  seed?: string | undefined;
  /** Apps with a fixed client id/secret pair; others are accepted as first presented. */
  apps?: AppConfig[] | undefined;
  /** Seed one ready user per platform (default true). */
  defaultSeed?: boolean | undefined;
  settings?: SettingsPatch | undefined;
  /** The real-time base of the sandbox clock (tests may pass their own). */
  clock?: Clock | undefined;
  /**
   * Keep the state in this file across restarts: read by openStateFile() (the plugin calls it
   * when it serves the state), written shortly after each change and at close(). None: memory only.
   */
  stateFile?: string | undefined;
  /** Where the state file's problems are told (default: stderr). */
  log?: ((line: string) => void) | undefined;
}

/** The stores, typed by the modules' entries in SandboxStores (`state.threads`, `state.meta` …). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the stores are fields #freshStores defines
export interface SandboxState extends SandboxStores {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SandboxState {
  readonly clock: SandboxClock;
  readonly faults = new FaultBook();
  readonly journal = new Journal();
  readonly options: SandboxStateOptions;
  ids: IdGenerator;
  settings: SandboxSettings;
  people: People;
  apps = new Map<string, AppRecord>();
  codes = new Map<string, AuthorizationCode>();
  tokens = new Map<string, TokenRecord>();
  consent = new Map<OAuthPlatform, ConsentChoice[]>();
  /** Authorize requests waiting on their consent page's answer, by request id. */
  authorizations = new Map<string, PendingAuthorization>();
  /** Events due at a moment of sandbox time (WhatsApp statuses, template reviews). */
  readonly timers: SandboxTimers;
  readonly #modules: readonly StateModule<string, object>[];
  /** The OAuth flavours of the modules, in list order. */
  readonly oauthPlatforms: readonly OAuthPlatform[];
  #pending = new Set<Promise<unknown>>();
  #persistence: SandboxPersistence | null = null;

  /** `modules`: the sandbox modules whose stores, seeds and restore hooks the state has. */
  constructor(modules: readonly StateModule<string, object>[], options: SandboxStateOptions = {}) {
    this.options = options;
    this.#modules = modules;
    this.oauthPlatforms = modules.flatMap((m) => (m.oauth ? [m.name as OAuthPlatform] : []));
    this.clock = createSandboxClock(options.clock);
    this.ids = new IdGenerator(options.seed ?? 'sandbox');
    this.settings = defaultSettings(this.#modules);
    this.people = new People(this.#modules);
    this.#checkNames();
    this.#addMethods();
    this.#freshStores();
    this.timers = new SandboxTimers(this.clock, () => this.changed());
    this.clock.onAdvance(() => this.changed());
    this.#init();
  }

  /** The modules the state was built from, in list order. */
  get modules(): readonly StateModule<string, object>[] {
    return this.#modules;
  }

  /** A store is a field named after its module: two modules, or a module and a field, may not share a name. */
  #checkNames(): void {
    const names = new Set<string>();
    for (const { name } of this.#modules) {
      if (names.has(name) || name in this) throw new Error(`sandbox: the module name ${name} is taken`);
      names.add(name);
    }
  }

  /** The modules' functions (`state.addTikTokCreator()`), not enumerable: the state file keeps no function. */
  #addMethods(): void {
    for (const module of this.#modules) {
      for (const [name, fn] of Object.entries(module.methods ?? {})) {
        if (name in this) throw new Error(`sandbox: the state function ${name} is taken`);
        const call = (...args: never[]) => fn(this, ...args);
        Object.defineProperty(this, name, { value: call, writable: false, enumerable: false, configurable: false });
      }
    }
  }

  /**
   * A fresh store for each module that has one, as an own enumerable field named after the
   * module: what a class field would be, so the state file keeps it (persistence.ts) under the
   * module's name, and reset() replaces it.
   */
  #freshStores(): void {
    for (const module of this.#modules) {
      if (module.store) Object.defineProperty(this, module.name, { value: module.store(), writable: true, enumerable: true, configurable: true });
    }
  }

  #init(): void {
    if (this.options.settings) applySettings(this.settings, this.options.settings);
    for (const app of this.options.apps ?? []) this.configureApp(app);
    if (this.options.defaultSeed === false) return;
    for (const module of this.#modules) module.seed?.(this);
  }

  /**
   * Restores the state from `options.stateFile` and keeps it there from now on. Called when the
   * state is served, not at construction: a worker process builds a state it never serves, and
   * must neither read nor write the serving process's file. Idempotent.
   */
  openStateFile(): void {
    if (this.#persistence || !this.options.stateFile) return;
    const log = this.options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
    const persistence = new SandboxPersistence(this.options.stateFile, this, log);
    persistence.load();
    this.#persistence = persistence;
  }

  /** The state changed outside a sandbox request's bookkeeping: save it soon, when kept in a file. */
  changed(): void {
    this.#persistence?.touch();
  }

  /** Saves what is not saved yet (a no-op without a state file). */
  async flush(): Promise<void> {
    await this.#persistence?.flush();
  }

  /** The last save: at the process's end. */
  async close(): Promise<void> {
    await this.#persistence?.close();
  }

  /** Forgets everything but the constructor's options, then seeds again. */
  reset(): void {
    this.ids = new IdGenerator(this.options.seed ?? 'sandbox');
    this.settings = defaultSettings(this.#modules);
    this.people = new People(this.#modules);
    this.apps.clear();
    this.codes.clear();
    this.tokens.clear();
    this.consent.clear();
    this.authorizations.clear();
    this.faults.clear();
    this.journal.clear();
    this.timers.clear();
    this.#freshStores();
    this.#init();
  }

  /** After a restore from the state file: each module settles the work the restart cut off. */
  restored(): void {
    for (const module of this.#modules) module.restored?.(this);
  }

  updateSettings(patch: SettingsPatch): SandboxSettings {
    applySettings(this.settings, patch);
    return this.settings;
  }

  // ── apps ──────────────────────────────────────────────────────────────────────────────
  configureApp(config: AppConfig): AppRecord {
    const app: AppRecord = {
      platform: config.platform,
      clientId: config.clientId,
      clientSecret: config.clientSecret ?? null,
      redirectUris: config.redirectUris ?? null,
      name: config.name ?? `Sandbox ${config.platform} app`,
      audited: config.audited ?? false,
    };
    this.apps.set(appKey(config.platform, config.clientId), app);
    return app;
  }

  /** The app for a client id, created unconfigured on first sight (authorize time). */
  app(platform: OAuthPlatform, clientId: string): AppRecord {
    return this.apps.get(appKey(platform, clientId)) ?? this.configureApp({ platform, clientId });
  }

  findApp(platform: OAuthPlatform, clientId: string): AppRecord | undefined {
    return this.apps.get(appKey(platform, clientId));
  }

  /** Checks a presented secret; an unconfigured app takes the first one it is shown. */
  checkSecret(app: AppRecord, secret: string): boolean {
    if (app.clientSecret === null) {
      app.clientSecret = secret;
      return true;
    }
    return app.clientSecret === secret;
  }

  // ── consent ───────────────────────────────────────────────────────────────────────────
  /** The next authorize request of the platform completes at once with this choice. */
  setNextConsent(platform: OAuthPlatform, choice: ConsentChoice): void {
    const queue = this.consent.get(platform) ?? [];
    queue.push(choice);
    this.consent.set(platform, queue);
  }

  takeConsent(platform: OAuthPlatform): ConsentChoice | undefined {
    return this.consent.get(platform)?.shift();
  }

  // ── codes and tokens ──────────────────────────────────────────────────────────────────
  issueCode(input: Omit<AuthorizationCode, 'code' | 'issuedAt' | 'expiresAt' | 'used'> & { ttlSeconds: number; code?: string }): AuthorizationCode {
    const now = this.clock.now();
    const code: AuthorizationCode = {
      ...input,
      code: input.code ?? this.ids.opaque('code', 48),
      issuedAt: now,
      expiresAt: now + input.ttlSeconds * 1000,
      used: false,
    };
    this.codes.set(code.code, code);
    return code;
  }

  issueToken(input: Omit<TokenRecord, 'issuedAt' | 'revoked' | 'pairedWith' | 'expiresAt'> & { ttlSeconds: number | null; pairedWith?: string | null }): TokenRecord {
    const now = this.clock.now();
    const token: TokenRecord = {
      ...input,
      issuedAt: now,
      expiresAt: input.ttlSeconds === null ? null : now + input.ttlSeconds * 1000,
      revoked: null,
      pairedWith: input.pairedWith ?? null,
    };
    this.tokens.set(token.value, token);
    return token;
  }

  token(value: string): TokenRecord | undefined {
    return this.tokens.get(value);
  }

  isExpired(token: TokenRecord): boolean {
    return token.expiresAt !== null && token.expiresAt <= this.clock.now();
  }

  /** Makes a token expired now (and its paired refresh token stays as it was). */
  expireToken(value: string): TokenRecord {
    const token = this.#mustToken(value);
    token.expiresAt = this.clock.now() - 1000;
    return token;
  }

  /**
   * Revokes a token. `logout` invalidates the one token (Graph 190/467); `deauthorized` and
   * `password_changed` invalidate every token the person gave the app (190/458, 190/460).
   */
  revokeToken(value: string, reason: RevokeReason = 'logout'): TokenRecord {
    const token = this.#mustToken(value);
    token.revoked = reason;
    if (token.pairedWith) {
      const paired = this.tokens.get(token.pairedWith);
      if (paired) paired.revoked = reason;
    }
    if (reason !== 'logout') {
      for (const other of this.tokens.values()) {
        if (other.platform === token.platform && other.clientId === token.clientId && other.userId === token.userId) other.revoked = reason;
      }
    }
    return token;
  }

  #mustToken(value: string): TokenRecord {
    const token = this.tokens.get(value);
    if (!token) throw new Error('no such token');
    return token;
  }

  // ── background work ───────────────────────────────────────────────────────────────────
  /** Keeps track of background work (media downloads, webhook sends) so tests can await it. */
  track<T>(promise: Promise<T>): Promise<T> {
    const tracked = promise.finally(() => {
      this.#pending.delete(tracked);
      this.changed(); // background work (downloads, webhook sends) changes the state when it ends
    });
    this.#pending.add(tracked);
    return tracked;
  }

  /** Resolves when no background work is left. */
  async idle(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
  }

  traceId(): string {
    return this.ids.opaque('trace', 27);
  }
}

function appKey(platform: OAuthPlatform, clientId: string): string {
  return `${platform}:${clientId}`;
}
