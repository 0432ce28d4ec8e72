// What the instagram and facebook publishers share: a Graph caller bound to one account's host
// and token (errors classified by meta/errors.ts), and the steps that run after a post is live
// (first comment, comments turned off).
import { GRAPH_VERSION } from '../context.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformHttp, PlatformRequest } from '../http.ts';
import { createOnce, isWaiting, type OnceContext, type Waiting } from '../create-once.ts';
import type { PublishProgress } from '../types.ts';
import { graphBody } from './errors.ts';
import { obj, type Json } from '../json.ts';

export type Params = Record<string, string | number | boolean | undefined>;
export type GraphCall = (method: 'GET' | 'POST' | 'DELETE', path: string, params?: Params, extra?: Partial<PlatformRequest>) => Promise<Json>;

/**
 * Calls `{host}/{version}{path}` with the token as a Bearer header (kept out of URLs and logs);
 * params go in the query of a GET or DELETE and in the form of a POST. A path that is a full
 * URL (rupload.facebook.com) is called as it is.
 */
export function graphCaller(http: PlatformHttp, platform: string, host: string, token: string): GraphCall {
  return async (method, path, params, extra = {}) => {
    const url = /^https:\/\//.test(path) ? path : `${host}/${GRAPH_VERSION}${path}`;
    const data = params ? (method === 'POST' ? { form: params } : { query: params }) : {};
    const response = await http.send(platform, { method, url, bearer: token, ...data, ...extra });
    return graphBody(platform, response);
  };
}

/** Attempts a follow-up step gets for transient failures before it is given up. */
export const FOLLOW_UP_TRIES = 3;

/**
 * A step made after the post went live (first comment, comments off). It runs once: its result
 * is saved under `progress.followUps[name]`. It must never fail the target, since a failed
 * target may be published again: a transient failure is thrown (the job retries and the
 * resumed attempt comes straight back here) at most FOLLOW_UP_TRIES times; after that, or on
 * any other failure, the step is given up and its error kept in the progress.
 */
export async function followUp(
  progress: PublishProgress,
  save: (p: PublishProgress) => Promise<void>,
  name: string,
  run: () => Promise<string | true>,
  once?: { ctx: OnceContext; find: (since: number) => Promise<string | null> },
): Promise<Waiting | undefined> {
  const all = obj(progress.followUps);
  progress.followUps = all;
  const state = obj(all[name]);
  if (state.done !== undefined || state.failed !== undefined) return undefined;
  try {
    // A step that creates something (a comment) must not be made twice either (create-once.ts).
    const done = once ? await createOnce(once.ctx, { key: `followUp:${name}`, make: run, find: once.find }) : await run();
    if (isWaiting(done)) return done;
    all[name] = { done };
    await save(progress);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    const tries = (typeof state.tries === 'number' ? state.tries : 0) + 1;
    const retry = error.retryable && tries < FOLLOW_UP_TRIES;
    all[name] = retry ? { tries } : { failed: `${error.kind}: ${error.message}` };
    await save(progress);
    if (retry) throw error;
  }
  return undefined;
}
