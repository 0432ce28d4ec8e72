// Route schemas are compiled when a route first needs them, not when the app is built. Building
// every response serializer (fast-json-stringify) and validator (ajv) of the ~250 routes took
// about 4 s of CPU per app, paid by every start and by every test suite that starts one; most
// routes of a process are never called. A route's code is now made on its first request (a few
// milliseconds, once), reused by every app built in the same process from the same schema
// objects; `compileAll` makes an app's pending ones at once (the schema test, and a warm-up).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type Serializer = (data: unknown) => string;
interface RouteSchema {
  schema: unknown;
  method?: string;
  url?: string;
  httpStatus?: string;
  contentType?: string;
}

/** Serializers by schema object: apps built from the same route modules share them. */
const serializers = new WeakMap<object, Map<string, Serializer>>();

function memo<T>(cache: WeakMap<object, Map<string, T>>, schema: unknown, key: string, make: () => T): T {
  if (typeof schema !== 'object' || schema === null) return make();
  let byKey = cache.get(schema);
  if (!byKey) cache.set(schema, (byKey = new Map<string, T>()));
  let made = byKey.get(key);
  if (made === undefined) byKey.set(key, (made = make()));
  return made;
}

export interface DeferredCompilers {
  buildSerializer: NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer'];
  validators<S>(compile: FastifySchemaCompiler<S>): FastifySchemaCompiler<S>;
  /** Makes every serializer and validator of this app not made yet; answers how many it made. */
  compileAll(): number;
}

type Validate = ((data: unknown) => boolean | Promise<unknown>) & { errors?: unknown };

/** One app's deferred compilers: Fastify's own serializer factory and the given validator compiler, each made on first use. */
export function deferredCompilers(): DeferredCompilers {
  const pending = new Set<() => unknown>();
  const deferred = <F>(build: () => F): { get: () => F } => {
    let fn: F | undefined;
    const make = () => {
      pending.delete(make);
      return (fn ??= build());
    };
    pending.add(make);
    return { get: () => fn ?? make() };
  };
  return {
    buildSerializer(externalSchemas, serializerOptions) {
      const build = SerializerSelector()(externalSchemas, serializerOptions) as (route: RouteSchema) => Serializer;
      const shared = Object.keys(externalSchemas ?? {}).sort().join(',');
      return ((route: RouteSchema) => {
        const key = `${route.method ?? ''} ${route.url ?? ''} ${route.httpStatus ?? ''} ${route.contentType ?? ''} ${shared}`;
        const fn = deferred(() => memo(serializers, route.schema, key, () => build(route)));
        return (data: unknown) => fn.get()(data);
      }) as never;
    },
    validators<S>(compile: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> {
      return (route) => {
        const fn = deferred(() => compile(route) as Validate);
        // Fastify reads `errors` off the function it holds: carried over from the real one.
        const validate: Validate = (data) => {
          const inner = fn.get();
          const result = inner(data);
          validate.errors = inner.errors;
          return result;
        };
        return validate as ReturnType<FastifySchemaCompiler<S>>;
      };
    },
    compileAll() {
      const all = [...pending];
      for (const make of all) make();
      return all.length;
    },
  };
}
