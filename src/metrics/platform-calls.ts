// Platform calls, observed at the two places every adapter shares: the one HTTP client (each
// request's latency and how it was answered, from its status alone) and the adapters' capability
// methods (each PlatformError they throw, by its kind: the adapters' own classification, from
// their error tables). Adapters themselves stay pure platform knowledge and know nothing of this.
import { PlatformError } from '../platforms/errors.ts';
import type { PlatformHttp } from '../platforms/http.ts';
import type { PlatformObserver } from '../platforms/registry.ts';
import type { Metrics } from './metrics.ts';

/** The outcome label of a platform answer: the status class, 429 apart. */
export function answerOutcome(status: number): string {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}

function observeHttp(http: PlatformHttp, metrics: Metrics): PlatformHttp {
  return {
    base: http.base,
    browserUrl: (realUrl) => http.browserUrl(realUrl),
    async send(platform, request) {
      const started = performance.now();
      try {
        const response = await http.send(platform, request);
        metrics.platformRequest(platform, answerOutcome(response.status), (performance.now() - started) / 1000);
        return response;
      } catch (error) {
        // No answer at all (refused, reset, timed out): the client's only failure of its own.
        metrics.platformRequest(platform, 'no_answer', (performance.now() - started) / 1000);
        throw error;
      }
    },
  };
}

const isPlain = (value: object): boolean => Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;

/**
 * The adapter as it is, seen through a Proxy whose methods (at any depth of its plain capability
 * objects) count the PlatformError they throw or reject with. Methods run with their own object
 * as `this`, so a method calling a sibling through `this` is not counted twice.
 */
function observeAdapter<A extends object>(adapter: A, platform: string, metrics: Metrics): A {
  const seen = new WeakMap<object, unknown>();
  const count = (error: unknown): never => {
    if (error instanceof PlatformError) metrics.platformError(platform, error.kind);
    throw error;
  };
  const watch = <O extends object>(target: O): O =>
    new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key);
        if (typeof value === 'function') {
          let wrapped = seen.get(value);
          if (!wrapped) {
            wrapped = (...args: unknown[]): unknown => {
              try {
                const result: unknown = Reflect.apply(value, object, args);
                return result instanceof Promise ? result.catch(count) : result;
              } catch (error) {
                return count(error);
              }
            };
            seen.set(value, wrapped);
          }
          return wrapped;
        }
        if (value !== null && typeof value === 'object' && isPlain(value)) {
          let wrapped = seen.get(value);
          if (!wrapped) {
            wrapped = watch(value);
            seen.set(value, wrapped);
          }
          return wrapped;
        }
        return value;
      },
    });
  return watch(adapter);
}

export function platformObserver(metrics: Metrics): PlatformObserver {
  return {
    http: (http) => observeHttp(http, metrics),
    adapter: (adapter) => observeAdapter(adapter, adapter.platform, metrics),
  };
}
