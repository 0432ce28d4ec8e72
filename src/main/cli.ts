// The `socialapi` command. Operator tasks run against the configured store; bad arguments print
// the usage and exit 2; a start-up failure prints one line and exits 1.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { systemClock } from '../lib/clock.ts';
import { createKey, listKeys, revokeKey, rotateKey } from '../modules/keys/service.ts';
import { createOrganization, findOrganization, listOrganizations } from '../modules/orgs/service.ts';
import { approvePost, rejectPost } from '../modules/posts/approval.ts';
import { createSignInLink, DASHBOARD_PREFIX, LINK_TTL_MS, revokeOrganizationSessions } from '../modules/dashboard/index.ts';
import { openMigratedStore, StartupError } from '../runtime.ts';
import { API_KEY_VARIABLE, runMcpStdio } from '../mcp/stdio.ts';
import { TOOLSETS_VARIABLE } from '../mcp/toolsets.ts';
import { printMcpTools } from '../mcp/tool-docs.ts';
import { clientConfig } from '../mcp/client-config.ts';
import { commandHelp, USAGE } from './help.ts';
import { printOpenApi } from './openapi.ts';
import { serve } from './serve.ts';
import { watchParent } from './shutdown.ts';
import { runWorker } from './worker.ts';


class UsageError extends Error {}

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

function parse<T extends ParseArgsOptionsConfig>(args: string[], options: T, positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(positionals ? `expected ${positionals} argument(s)` : `unexpected argument ${parsed.positionals[0] ?? ''}`);
  }
  return parsed;
}

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${name} must be a positive integer`);
  return Number(value);
}

async function withStore<T>(config: Config, task: (store: Awaited<ReturnType<typeof openMigratedStore>>) => Promise<T>): Promise<T> {
  const store = await openMigratedStore(config);
  try {
    return await task(store);
  } finally {
    await store.close();
  }
}

/** `--help`, `-h`, `help [CMD]` and `CMD … --help`: the summary or the command's help; null when argv asks for none. */
function helpFor(argv: string[]): string | null {
  const [command, topic] = argv;
  if (command === undefined) return null;
  if (command === '--help' || command === '-h') return USAGE;
  if (command === 'help') {
    if (topic === undefined) return USAGE;
    const help = commandHelp(topic);
    if (!help) throw new UsageError(`no command ${topic}`);
    return help;
  }
  if (argv.includes('--help') || argv.includes('-h')) return commandHelp(command);
  return null;
}

async function run(argv: string[], out: (line: string) => void, config: () => Config, options: MainOptions): Promise<number> {
  const help = helpFor(argv);
  if (help !== null) {
    out(help);
    return 0;
  }
  const [command, sub, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parse([sub, ...rest].filter((a) => a !== undefined), { 'no-worker': { type: 'boolean' } }, 0);
      await serve(config(), { worker: !values['no-worker'], watchParent: options.underNpm });
      return -1; // keeps running
    }
    case 'worker':
      parse([sub, ...rest].filter((a) => a !== undefined), {}, 0);
      await runWorker(config(), { watchParent: options.underNpm });
      return -1;
    case 'migrate': {
      parse([sub, ...rest].filter((a) => a !== undefined), {}, 0);
      await withStore(config(), () => Promise.resolve());
      out('migrations applied');
      return 0;
    }
    case 'sandbox': {
      const { values } = parse([sub, ...rest].filter((a) => a !== undefined), { port: { type: 'string' }, host: { type: 'string' }, state: { type: 'string' } }, 0);
      if (values.port !== undefined && !/^\d+$/.test(values.port)) throw new UsageError('--port must be a port number');
      const port = values.port === undefined ? 4010 : Number(values.port);
      const { runSandbox } = await import('../sandbox/main.ts');
      const close = await runSandbox(port, values.host ?? '127.0.0.1', values.state);
      const stop = () => void close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (options.underNpm) watchParent(stop);
      return -1;
    }
    case 'openapi':
      parse([sub, ...rest].filter((a) => a !== undefined), {}, 0);
      out(await printOpenApi());
      return 0;
    case 'mcp': {
      if (sub === 'tools') {
        parse(rest, {}, 0);
        out((await printMcpTools()).trimEnd());
        return 0;
      }
      if (sub === 'config') {
        const { values } = parse(rest, { url: { type: 'string' } }, 0);
        out(clientConfig(values.url ?? config().publicBaseUrl));
        return 0;
      }
      const { values } = parse([sub, ...rest].filter((a) => a !== undefined), { url: { type: 'string' }, toolsets: { type: 'string' } }, 0);
      const toolsets = values.toolsets ?? process.env[TOOLSETS_VARIABLE];
      await runMcpStdio(config, { apiKey: process.env[API_KEY_VARIABLE], url: values.url, toolsets, watchParent: options.underNpm });
      return -1; // serves until the client closes stdin
    }
    case 'orgs':
      if (sub === 'create') {
        const { values } = parse(rest, { name: { type: 'string' }, approval: { type: 'boolean' } }, 0);
        if (!values.name) throw new UsageError('--name is required');
        const name = values.name;
        const org = await withStore(config(), (store) => createOrganization(store.db, systemClock, { name, approvalRequired: values.approval ?? false }));
        out(`${org.id}\t${org.name}\tapproval=${org.approval_required === 1 ? 'yes' : 'no'}`);
        return 0;
      }
      if (sub === 'list') {
        parse(rest, {}, 0);
        const orgs = await withStore(config(), (store) => listOrganizations(store.db));
        for (const org of orgs) out(`${org.id}\t${org.name}\tapproval=${org.approval_required === 1 ? 'yes' : 'no'}\tcreated=${iso(org.created_at)}`);
        return 0;
      }
      throw new UsageError(`unknown orgs command ${sub ?? ''}`);
    case 'posts': {
      if (sub !== 'approve' && sub !== 'reject') throw new UsageError(`unknown posts command ${sub ?? ''}`);
      const { positionals, values } = parse(rest, sub === 'reject' ? { reason: { type: 'string' } } : {}, 1);
      const postId = positionals[0] ?? '';
      const reason = typeof values.reason === 'string' ? values.reason : null;
      const result = await withStore(config(), (store) => (sub === 'approve' ? approvePost({ store, clock: systemClock }, postId, { reviewer: 'cli' }) : rejectPost({ store, clock: systemClock }, postId, reason, { reviewer: 'cli' })));
      if (result.ok) out(`${postId}\t${result.status}`);
      else out(result.reason === 'not_found' ? `no post ${postId}` : `${postId} is ${result.status}, not pending_approval`);
      return result.ok ? 0 : 1;
    }
    case 'keys':
      return keysCommand(sub, rest, out, config);
    case 'dashboard':
      return dashboardCommand(sub, rest, out, config);
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command given');
  }
}

async function keysCommand(sub: string | undefined, rest: string[], out: (line: string) => void, config: () => Config): Promise<number> {
  switch (sub) {
    case 'create': {
      const { values } = parse(rest, { org: { type: 'string' }, name: { type: 'string' }, 'rate-limit': { type: 'string' }, approval: { type: 'boolean' } }, 0);
      if (!values.org) throw new UsageError('--org is required');
      const orgId = values.org;
      const rateLimit = positiveInteger(values['rate-limit'], '--rate-limit');
      const created = await withStore(config(), async (store) => {
        if (!(await findOrganization(store.db, orgId))) return null;
        return createKey(store.db, systemClock, orgId, { ...(values.name ? { name: values.name } : {}), rateLimit: rateLimit ?? null, approvalRequired: values.approval ?? false });
      });
      if (!created) {
        out(`no organization ${orgId}`);
        return 1;
      }
      out(`${created.row.id} created for ${orgId}. The key is shown only this once:`);
      out(created.key);
      return 0;
    }
    case 'list': {
      const { values } = parse(rest, { org: { type: 'string' } }, 0);
      if (!values.org) throw new UsageError('--org is required');
      const orgId = values.org;
      const keys = await withStore(config(), (store) => listKeys(store.db, orgId));
      for (const k of keys) {
        out(`${k.id}\t${k.prefix}…\t${k.name}\trate-limit=${k.rate_limit ?? 'default'}\tapproval=${k.approval_required === 1 ? 'yes' : 'no'}\t${k.revoked_at === null ? 'active' : `revoked ${iso(k.revoked_at)}`}`);
      }
      return 0;
    }
    case 'revoke': {
      const { positionals } = parse(rest, {}, 1);
      const keyId = positionals[0] ?? '';
      const done = await withStore(config(), (store) => revokeKey(store, systemClock, keyId));
      out(done ? `${keyId} revoked` : `no active key ${keyId}`);
      return done ? 0 : 1;
    }
    case 'rotate': {
      const { positionals } = parse(rest, {}, 1);
      const keyId = positionals[0] ?? '';
      const created = await withStore(config(), (store) => rotateKey(store, systemClock, keyId));
      if (!created) {
        out(`no active key ${keyId}`);
        return 1;
      }
      out(`${keyId} revoked; ${created.row.id} replaces it. The new key is shown only this once:`);
      out(created.key);
      return 0;
    }
    default:
      throw new UsageError(`unknown keys command ${sub ?? ''}`);
  }
}

async function dashboardCommand(sub: string | undefined, rest: string[], out: (line: string) => void, config: () => Config): Promise<number> {
  if (sub !== 'link' && sub !== 'revoke') throw new UsageError(`unknown dashboard command ${sub ?? ''}`);
  const { values } = parse(rest, { org: { type: 'string' }, email: { type: 'string' } }, 0);
  if (!values.org) throw new UsageError('--org is required');
  if (sub === 'revoke' && values.email !== undefined) throw new UsageError('--email is for dashboard link');
  const orgId = values.org;
  const email = values.email === undefined ? null : values.email.trim();
  if (email !== null && !/^[^\s@]{1,100}@[^\s@]{1,200}$/.test(email)) throw new UsageError('--email must be an email address');
  const settings = config();
  const done = await withStore(settings, async (store) => {
    if (!(await findOrganization(store.db, orgId))) return null;
    if (sub === 'revoke') return `${await revokeOrganizationSessions(store.db, systemClock.now(), orgId)} dashboard session(s) of ${orgId} signed out`;
    const { token } = await createSignInLink(store.db, systemClock.now(), orgId, email);
    return `${settings.publicBaseUrl}${DASHBOARD_PREFIX}/login/${token}`;
  });
  if (done === null) {
    out(`no organization ${orgId}`);
    return 1;
  }
  if (sub === 'link') out(`Open this link to sign in to the dashboard of ${orgId}${email ? ` as ${email}` : ''} (single use, valid ${LINK_TTL_MS / 60_000} minutes):`);
  out(done);
  return 0;
}

export interface MainOptions {
  /** Started by npm (`npm start`, npx): a shell stands between npm and this process. */
  underNpm?: boolean;
}

export async function main(argv: string[], options: MainOptions = {}): Promise<void> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const code = await run(argv, out, () => loadConfig(), options);
    if (code >= 0) process.exitCode = code;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`socialapi: ${error.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError) {
      process.stderr.write(`socialapi: configuration: ${error.message}\n`);
      process.exitCode = 1;
    } else if (error instanceof StartupError) {
      process.stderr.write(`socialapi: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  }
}

