// The only reader of process.env. Every setting is parsed once here, with its default, and a bad
// value stops the start with one line naming it. Everything below receives the parsed Config.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { PlatformDefinition } from './platforms/definition.ts';
import { APPS, DEFINITIONS } from './platforms/registry.ts';
import type { ConfiguredApp, SettingsReader } from './platforms/settings.ts';

export class ConfigError extends Error {}

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; /** Connections the process's pool opens at most (DATABASE_POOL_MAX). */ poolMax?: number };

export interface S3Config {
  bucket: string;
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  publicUrl: string | null;
}

/** What the platform definitions read (platforms/settings.ts): their apps and their own settings. */
export interface PlatformConfig {
  /** Every declared app by name; in sandbox mode an unconfigured one has the sandbox's pair. */
  apps: Record<string, ConfiguredApp>;
  /** Each platform's own settings, by platform name, as its definition parsed them. */
  settings: Record<string, unknown>;
  metaWebhookVerifyToken: string | null;
}

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  /** PUBLIC_BASE_URL was given (not the http://HOST:PORT default): media files are public there. */
  publicBaseUrlExplicit: boolean;
  dataDir: string;
  database: DatabaseTarget;
  redisUrl: string | null;
  /** 32 bytes when given in the environment; null means "read or generate it in dataDir". */
  encryptionKey: Buffer | null;
  mediaMaxBytes: number;
  /** A request body that receives nothing for this long (connection left open) is cut off. */
  bodyIdleTimeoutMs: number;
  s3: S3Config | null;
  platforms: PlatformConfig;
  sandbox: boolean;
  platformApiBase: string | null;
  /** How long one platform call may take; also how long a call cut off by a crash may still be running. */
  platformTimeoutMs: number;
  allowPrivateUrls: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  rateLimitPerMinute: number;
  /** How long a webhook receiver has to answer; the contract says 10 seconds. */
  webhookTimeoutMs: number;
  /** Days store.retention keeps failed jobs, settled deliveries, their events and processed inbound events. */
  retentionDays: number;
  /** How often the comments of a post on a polled platform (reddit …) published less than a day ago are polled (older ones less often). */
  commentPollMs: number;
  /** Origins (scheme://host[:port]) whose pages may call /mcp besides PUBLIC_BASE_URL's own; "*" for any. */
  mcpAllowedOrigins: string[];
  /** Prometheus metrics (src/metrics): where /metrics is served, if anywhere. */
  metrics: MetricsConfig;
  /** Dynamic client registrations one address may make per minute (POST /oauth/register). */
  mcpRegistrationsPerMinute: number;
  jobs: {
    /** Fallback poll, for wake-ups another process could not signal (SQLite across processes). */
    pollIntervalMs: number;
    /** How long a claimed job stays reserved unrenewed: a dead worker's jobs are resumed this long after its last renewal. */
    leaseMs: number;
    concurrency: number;
    /** Slots of the lanes other than the default one (webhook sends wait on receivers). */
    lanes: { webhooks: number; posts: number };
    shutdownTimeoutMs: number;
  };
}

export interface MetricsConfig {
  /** METRICS=1: /metrics on the API port. */
  onApiPort: boolean;
  /** METRICS_PORT: /metrics on a port of its own (the only way a `worker` process shows its metrics). */
  port: number | null;
  host: string;
  /** METRICS_TOKEN: scrapers must send it as a Bearer token. */
  token: string | null;
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function text(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function httpOrigin(env: Env, name: string, fallback: string): string {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  return url.origin;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1 or 0 (got "${raw}")`);
}

function httpUrl(env: Env, name: string): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

/** A PostgreSQL pool's size unless DATABASE_POOL_MAX says otherwise (each connection is a server backend). */
export const DEFAULT_POOL_MAX = 10;

function databaseTarget(env: Env, dataDir: string): DatabaseTarget {
  const raw = text(env, 'DATABASE_URL');
  if (raw === null) return { kind: 'sqlite', file: resolve(dataDir, 'socialapi.db') };
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      const url = new URL(raw);
      if (!url.hostname && !url.searchParams.get('host')) throw new Error('no host');
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: raw, poolMax: integer(env, 'DATABASE_POOL_MAX', DEFAULT_POOL_MAX, 1, 1000) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ConfigError('DATABASE_URL must be postgres://…, sqlite:PATH or a file path');
  }
  const file = raw.startsWith('sqlite:') ? raw.slice('sqlite:'.length) : raw;
  if (!file) throw new ConfigError('DATABASE_URL sqlite: needs a file path');
  return { kind: 'sqlite', file: file === ':memory:' ? file : resolve(file) };
}

function encryptionKey(env: Env): Buffer | null {
  const raw = text(env, 'ENCRYPTION_KEY');
  if (raw === null) return null;
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes, as base64 or hex');
  return key;
}

function s3(env: Env): S3Config | null {
  const bucket = text(env, 'S3_BUCKET');
  if (bucket === null) return null;
  return {
    bucket,
    endpoint: httpUrl(env, 'S3_ENDPOINT'),
    region: text(env, 'S3_REGION') ?? 'us-east-1',
    accessKeyId: text(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: text(env, 'S3_SECRET_ACCESS_KEY'),
    publicUrl: httpUrl(env, 'S3_PUBLIC_URL'),
  };
}

/** Whether any platform credential is set: without one the sandbox is the default. */
function anyPlatformCredential(env: Env): boolean {
  return APPS.some((app) => text(env, app.idVar) !== null || text(env, app.secretVar) !== null) || text(env, 'META_WEBHOOK_VERIFY_TOKEN') !== null;
}

/** The declared apps and each definition's own settings, read from the environment. */
function platformConfig(env: Env, sandbox: boolean): PlatformConfig {
  const apps: Record<string, ConfiguredApp> = {};
  for (const app of APPS) {
    const clientId = text(env, app.idVar);
    const clientSecret = text(env, app.secretVar);
    const credentials = clientId && clientSecret ? { clientId, clientSecret } : sandbox ? app.sandbox : null;
    apps[app.name] = { credentials, vars: `${app.idVar} and ${app.secretVar}` };
  }
  const read: SettingsReader = {
    sandbox,
    text: (name) => text(env, name),
    flag: (name, fallback) => flag(env, name, fallback),
    integer: (name, fallback, min, max) => integer(env, name, fallback, min, max),
    origin: (name, fallback) => httpOrigin(env, name, fallback),
  };
  const settings = Object.fromEntries(DEFINITIONS.map((d: PlatformDefinition) => [d.name, d.settings?.(read)]));
  return { apps, settings, metaWebhookVerifyToken: text(env, 'META_WEBHOOK_VERIFY_TOKEN') };
}

function origins(env: Env, name: string): string[] {
  const raw = text(env, name);
  if (raw === null) return [];
  return raw.split(',').map((item) => item.trim()).filter(Boolean).map((item) => {
    if (item === '*') return item;
    try {
      const url = new URL(item);
      if (url.origin !== 'null' && url.origin === item.replace(/\/+$/, '')) return url.origin;
    } catch {
      // reported below
    }
    throw new ConfigError(`${name} must list origins such as https://app.example.com, comma-separated, or * (got "${item}")`);
  });
}

/** Parses a configuration from an environment; pure, so tests can build one from a plain object. */
export function parseConfig(env: Env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = text(env, 'HOST') ?? '127.0.0.1';
  const dataDir = resolve(text(env, 'DATA_DIR') ?? './data');
  const sandbox = flag(env, 'SANDBOX', !anyPlatformCredential(env));
  const platforms = platformConfig(env, sandbox);
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    port,
    host,
    publicBaseUrl: httpUrl(env, 'PUBLIC_BASE_URL') ?? `http://${urlHost}:${port}`,
    publicBaseUrlExplicit: httpUrl(env, 'PUBLIC_BASE_URL') !== null,
    dataDir,
    database: databaseTarget(env, dataDir),
    redisUrl: text(env, 'REDIS_URL'),
    encryptionKey: encryptionKey(env),
    mediaMaxBytes: integer(env, 'MEDIA_MAX_BYTES', 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    bodyIdleTimeoutMs: integer(env, 'BODY_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
    s3: s3(env),
    platforms,
    sandbox,
    platformApiBase: httpUrl(env, 'PLATFORM_API_BASE'),
    platformTimeoutMs: integer(env, 'PLATFORM_TIMEOUT_MS', 30_000, 100, 600_000),
    allowPrivateUrls: flag(env, 'ALLOW_PRIVATE_URLS', sandbox),
    logLevel: logLevel as Config['logLevel'],
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000_000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    retentionDays: integer(env, 'RETENTION_DAYS', 30, 1, 3650),
    // REDDIT_COMMENT_POLL_MS is the name from before other platforms were polled.
    commentPollMs: integer(env, text(env, 'COMMENT_POLL_MS') === null ? 'REDDIT_COMMENT_POLL_MS' : 'COMMENT_POLL_MS', 300_000, 1000, 86_400_000),
    mcpAllowedOrigins: origins(env, 'MCP_ALLOWED_ORIGINS'),
    metrics: {
      onApiPort: flag(env, 'METRICS', false),
      port: text(env, 'METRICS_PORT') === null ? null : integer(env, 'METRICS_PORT', 0, 0, 65535),
      host: text(env, 'METRICS_HOST') ?? host,
      token: text(env, 'METRICS_TOKEN'),
    },
    mcpRegistrationsPerMinute: integer(env, 'MCP_REGISTRATIONS_PER_MINUTE', 10, 1, 1_000_000),
    jobs: {
      pollIntervalMs: integer(env, 'JOB_POLL_INTERVAL_MS', 1000, 10, 3_600_000),
      leaseMs: integer(env, 'JOB_LEASE_MS', 10_000, 100, 86_400_000),
      concurrency: integer(env, 'JOB_CONCURRENCY', 8, 1, 1000),
      lanes: { webhooks: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000), posts: integer(env, 'POST_DELIVERY_CONCURRENCY', 256, 1, 1000) },
      shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    },
  };
}

/** Reads `.env` (if present; real environment variables win) and the process environment. */
export function loadConfig(cwd = process.cwd()): Config {
  const file = resolve(cwd, '.env');
  const fromFile = existsSync(file) ? parseDotenv(readFileSync(file)) : {};
  return parseConfig({ ...fromFile, ...process.env });
}
