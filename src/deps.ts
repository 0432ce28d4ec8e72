// What the app, the worker and every module are built from: made once at start (runtime.ts), or by
// a test from its own parts. Nothing here reaches back into http/ or modules/.
import type { Config } from './config.ts';
import type { Store } from './db/database.ts';
import type { Clock } from './lib/clock.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Sealer } from './lib/crypto.ts';
import type { Platforms } from './platforms/types.ts';
import type { SandboxState } from './sandbox/index.ts';

/** What the app is built from; tests build it from their own. */
export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  sealer: Sealer;
  /** The in-process platform sandbox, served at /sandbox, in sandbox mode without PLATFORM_API_BASE. */
  sandbox: SandboxState | null;
  /** Every platform's adapter (its capabilities), built once from the config (platforms/registry.ts). */
  platforms: Platforms;
  /** Prometheus series (src/metrics), when METRICS or METRICS_PORT is set; absent, nothing is counted. */
  metrics?: Metrics;
}
