// One measurement with autocannon's programmatic API: a fixed number of keep-alive connections,
// one request in flight on each (no pipelining, as real clients send), for a fixed duration.
import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  /** Seconds. */
  duration: number;
}

export interface LoadResult {
  /** Mean of the per-second request counts. */
  rps: number;
  /** Latency percentiles, milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  /** Connection errors and timeouts: the server failed to answer at all. */
  errors: number;
  timeouts: number;
  /** Answers by status code, e.g. { 200: 81234 }. */
  statusCodes: Record<string, number>;
}

export async function measure(url: string, headers: Record<string, string>, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: 'GET',
    headers,
    connections: options.connections,
    pipelining: 1,
    duration: options.duration,
    timeout: 10,
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}
