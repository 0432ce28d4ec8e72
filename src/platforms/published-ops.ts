// What can be done to a post once it is live (contract "Published posts"): edit its text
// (facebook), delete it from the platform (facebook, threads), turn its comments on or off
// (instagram). One small capability per operation rather than optional methods on one interface;
// a platform that is not in an operation's map does not offer it (400 not_supported). Like
// publishers, these are pure platform knowledge and throw PlatformError.
import type { Config } from '../config.ts';
import { platformApiBase } from './base-url.ts';
import { facebookPostEditor, facebookPostRemover } from './facebook/published.ts';
import { createPlatformHttp, type FetchFn } from './http.ts';
import { instagramCommentsSwitch } from './instagram/published.ts';
import { losslessJsonFetch } from './publishers.ts';
import { threadsPostRemover } from './threads/published.ts';
import type { AccountCredentials } from './types.ts';

export interface PostEditor {
  platform: string;
  /** Replaces the text of the live post. */
  edit(account: AccountCredentials, platformPostId: string, content: string): Promise<void>;
}

export interface PostRemover {
  platform: string;
  /** Deletes the live post on the platform. */
  unpublish(account: AccountCredentials, platformPostId: string): Promise<void>;
}

export interface CommentsSwitch {
  platform: string;
  /** Allows or stops new comments on the live post. */
  setComments(account: AccountCredentials, platformPostId: string, enabled: boolean): Promise<void>;
}

export interface PublishedOps {
  editors: ReadonlyMap<string, PostEditor>;
  removers: ReadonlyMap<string, PostRemover>;
  commentSwitches: ReadonlyMap<string, CommentsSwitch>;
}

const byPlatform = <T extends { platform: string }>(list: T[]): ReadonlyMap<string, T> => new Map(list.map((item) => [item.platform, item]));

export function createPublishedOps(config: Pick<Config, 'platformApiBase' | 'sandbox' | 'publicBaseUrl'>, fetchFn: FetchFn = fetch): PublishedOps {
  const http = createPlatformHttp({ base: platformApiBase(config), userAgent: 'socialapi/1.0', fetch: losslessJsonFetch(fetchFn) });
  return {
    editors: byPlatform([facebookPostEditor(http)]),
    removers: byPlatform([facebookPostRemover(http), threadsPostRemover(http)]),
    commentSwitches: byPlatform([instagramCommentsSwitch(http)]),
  };
}
