// The sandbox's public interface: the plugin (to mount inside the service), startSandbox (its
// own server), and the state with its control functions.
import Fastify from 'fastify';
import { SandboxState } from './state.ts';
import { sandboxPlugin, type SandboxPluginOptions } from './plugin.ts';

export { sandboxPlugin, type SandboxPluginOptions } from './plugin.ts';
export { SandboxState } from './state.ts';
export type { AppConfig, SandboxStateOptions } from './core/state.ts';
export { SANDBOX_STATE_FILE } from './core/persistence.ts';
export type { FaultInput } from './core/faults.ts';
export type { SandboxSettings, SettingsPatch } from './core/settings.ts';
export type { JournalEntry, JournalFilter } from './core/journal.ts';
export { notify as sendWebhook } from './webhooks/deliver.ts';

export interface StartSandboxOptions extends SandboxPluginOptions {
  port?: number | undefined;
  host?: string | undefined;
  /** Mount under this prefix on its own server too (default: the root). */
  prefix?: string | undefined;
  logger?: boolean | undefined;
}

export interface RunningSandbox {
  /** e.g. `http://127.0.0.1:4010`: the value for PLATFORM_API_BASE. */
  url: string;
  state: SandboxState;
  close(): Promise<void>;
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const state = options.state ?? new SandboxState(options);
  const app = Fastify({ logger: options.logger ?? false });
  await app.register(sandboxPlugin, { ...options, state, prefix: options.prefix ?? '' });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the sandbox has no TCP address');
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${options.prefix ?? ''}`,
    state,
    async close() {
      await app.close();
      await state.close();
    },
  };
}
