// Everything a scenario may tune. Defaults follow platforms.md; where the platforms disagree
// with themselves (token lifetimes, quotas) the value is a setting, not a constant. The shared
// groups (processing, tokens, limits) are filled by the modules, each with its own keys
// (`declare module '../core/settings.ts' { interface TokenSettings { tiktokAccess: number } }`),
// and a module may add a group of its own (ModuleSettings); the defaults are each module's
// `settings`, merged in list order over the core's (media).
export interface SandboxSettings extends ModuleSettings {
  /** How long asynchronous processing takes before a final status (ms of sandbox time). */
  processing: ProcessingSettings;
  /** Limits of the real downloads the sandbox makes for media URLs. */
  media: { maxBytes: number; timeoutMs: number };
  /** Lifetimes in seconds (platforms.md §1.5, §2.2, §4.1, §5.1, §6.1), authorization codes included. */
  tokens: TokenSettings;
  /** Quotas and rate limits. */
  limits: LimitSettings;
}

/* eslint-disable @typescript-eslint/no-empty-object-type -- filled in by the modules */
export interface ProcessingSettings {}
export interface TokenSettings {}
export interface LimitSettings {}
/** The groups of the modules' own settings, keyed by group name. */
export interface ModuleSettings {}
/* eslint-enable @typescript-eslint/no-empty-object-type */

/** The defaults a module adds: keys of the shared groups, and its own groups whole. */
export type SettingsDefaults = SettingsPatch;

/** The defaults of the core's groups, then of each module, in list order. */
export function defaultSettings(modules: readonly { readonly settings?: (() => SettingsDefaults) | undefined }[]): SandboxSettings {
  const settings: Record<string, Record<string, unknown>> = { processing: {}, media: { maxBytes: 100 * 1024 * 1024, timeoutMs: 15_000 }, tokens: {}, limits: {} };
  for (const module of modules) {
    for (const [group, values] of Object.entries(module.settings?.() ?? {})) Object.assign((settings[group] ??= {}), values);
  }
  return settings as unknown as SandboxSettings;
}

export type SettingsPatch = { [K in keyof SandboxSettings]?: Partial<SandboxSettings[K]> };

/** Merges a patch group by group; unknown groups and keys are refused so typos do not pass. */
export function applySettings(settings: SandboxSettings, patch: SettingsPatch): void {
  for (const [group, values] of Object.entries(patch)) {
    if (!(group in settings)) throw new Error(`unknown settings group: ${group}`);
    const target = settings[group as keyof SandboxSettings] as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      if (!(key in target)) throw new Error(`unknown setting: ${group}.${key}`);
      target[key] = value;
    }
  }
}
