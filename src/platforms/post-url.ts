// A published post's url: the address a browser opens. It is the platform's permalink (a relative
// one, as Facebook gives for videos, resolved on the platform's site), rewritten as every
// browser URL is (http.ts browserUrl): unchanged against the real platforms, and onto the
// sandbox, which serves its own page of the post at that path, in sandbox mode.
import type { PlatformHttp } from './http.ts';

export function postUrl(http: Pick<PlatformHttp, 'browserUrl'>, permalink: string | null | undefined, site: string): string | null {
  if (!permalink) return null;
  let url: URL;
  try {
    url = new URL(permalink, site);
  } catch {
    return null;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? http.browserUrl(url.toString()) : null;
}
