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

/** Whatever Reflect.apply calls (what `typeof x === 'function'` narrows to). */
type Callable = Parameters<typeof Reflect.apply>[0];

const isPlain = (value: object): boolean => Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;

/** A property the Proxy must hand out as it is (its invariants forbid a stand-in for a frozen one). */
const isFixed = (object: object, key: PropertyKey): boolean => {
  const descriptor = Reflect.getOwnPropertyDescriptor(object, key);
  return descriptor !== undefined && !descriptor.configurable && descriptor.writable === false;
};

/**
 * The adapter as it is, seen through a Proxy whose own methods (at any depth of its plain
 * capability objects and arrays) count the PlatformError they throw or reject with. Inherited
 * methods (an array's includes) are left alone. Methods run with their own object as `this`,
 * so a method calling a sibling through `this` is not counted twice. Each object's proxy and
 * each method's wrapper are made once, on first use.
 */
function observeAdapter<A extends object>(adapter: A, platform: string, metrics: Metrics): A {
  const proxies = new WeakMap<object, object>();
  const methods = new WeakMap<object, Map<PropertyKey, unknown>>();
  const count = (error: unknown): never => {
    if (error instanceof PlatformError) metrics.platformError(platform, error.kind);
    throw error;
  };
  const method = (object: object, key: PropertyKey, fn: Callable): unknown => {
    let own = methods.get(object);
    if (!own) methods.set(object, (own = new Map<PropertyKey, unknown>()));
    let wrapped = own.get(key);
    if (!wrapped) {
      wrapped = (...args: unknown[]): unknown => {
        try {
          const result: unknown = Reflect.apply(fn, object, args);
          return result instanceof Promise ? result.catch(count) : result;
        } catch (error) {
          return count(error);
        }
      };
      own.set(key, wrapped);
    }
    return wrapped;
  };
  const watch = <O extends object>(target: O): O =>
    new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key);
        if (value === null || (typeof value !== 'function' && typeof value !== 'object') || isFixed(object, key)) return value;
        if (typeof value === 'function') return Object.hasOwn(object, key) ? method(object, key, value) : value;
        if (!isPlain(value)) return value;
        let proxy = proxies.get(value);
        if (!proxy) proxies.set(value, (proxy = watch(value)));
        return proxy;
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
