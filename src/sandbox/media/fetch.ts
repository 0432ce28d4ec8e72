// Real downloads of the media URLs that containers and PULL_FROM_URL name: the platforms cURL
// them, and so does the sandbox (issue 3, point 4). Loopback is allowed on purpose: the service
// and the tests serve their files on 127.0.0.1. Only the first bytes are kept (to sniff the
// type); the rest is counted and dropped, so a large video costs no memory.
import { SNIFF_BYTES, sniff, type SniffedType } from './sniff.ts';

export type FetchFailure = 'bad_url' | 'unreachable' | 'http_status' | 'too_large' | 'timeout';

export type FetchedMedia =
  | { ok: true; size: number; head: Buffer; type: SniffedType | null }
  | { ok: false; reason: FetchFailure; detail: string };

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
}

export async function fetchMedia(url: string, limits: FetchLimits): Promise<FetchedMedia> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'bad_url', detail: 'not a URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'bad_url', detail: 'not http(s)' };
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const res = await fetch(parsed, { signal, redirect: 'follow', headers: { 'user-agent': 'facebookexternalhit/1.1 (socialapi sandbox)' } });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      return { ok: false, reason: 'http_status', detail: `HTTP ${res.status}` };
    }
    const declared = Number(res.headers.get('content-length') ?? 'NaN');
    if (declared > limits.maxBytes) {
      await res.body.cancel();
      return { ok: false, reason: 'too_large', detail: `${declared} bytes` };
    }
    const head: Buffer[] = [];
    let headSize = 0;
    let size = 0;
    for await (const part of res.body) {
      const chunk = part as Uint8Array;
      size += chunk.byteLength;
      if (size > limits.maxBytes) return { ok: false, reason: 'too_large', detail: `over ${limits.maxBytes} bytes` };
      if (headSize < SNIFF_BYTES) {
        head.push(Buffer.from(chunk.subarray(0, SNIFF_BYTES - headSize)));
        headSize += Math.min(chunk.byteLength, SNIFF_BYTES - headSize);
      }
    }
    const bytes = Buffer.concat(head);
    return { ok: true, size, head: bytes, type: sniff(bytes) };
  } catch (error) {
    if (signal.aborted) return { ok: false, reason: 'timeout', detail: `no answer within ${limits.timeoutMs} ms` };
    return { ok: false, reason: 'unreachable', detail: error instanceof Error ? error.message : String(error) };
  }
}
