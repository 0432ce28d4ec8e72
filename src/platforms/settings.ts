// What a platform's definition reads from the environment: the apps it connects through and its
// own settings. config.ts reads them for every definition at start (a bad value stops the start
// with one line naming it), so a new platform's settings are declared in its folder only.

export interface AppCredentials {
  clientId: string;
  clientSecret: string;
}

/** An app a platform connects through (the Meta app serves facebook, instagram and WhatsApp). */
export interface AppDefinition {
  /** How adapters ask for it (`requireApp(ctx.apps, 'meta')`). */
  name: string;
  /** The environment variables of its id and secret. */
  idVar: string;
  secretVar: string;
  /** The pair used in sandbox mode when none is configured: the sandbox accepts any id and binds the first secret it is shown. */
  sandbox: AppCredentials;
}

/** An app as configured: its credentials (null: not configured here) and the variables that set them. */
export interface ConfiguredApp {
  credentials: AppCredentials | null;
  vars: string;
}

/** Reads a platform's own settings; each reader throws ConfigError naming the variable. */
export interface SettingsReader {
  /** True when the sandbox stands in for every platform (some defaults differ there). */
  readonly sandbox: boolean;
  text(name: string): string | null;
  flag(name: string, fallback: boolean): boolean;
  integer(name: string, fallback: number, min: number, max: number): number;
  /** An http(s) URL, as its origin (no path, no trailing slash); anything else stops the start, naming the variable. */
  origin(name: string, fallback: string): string;
}
