// Load with autocannon's programmatic API: a fixed number of keep-alive connections, one request
// in flight on each (no pipelining, as real clients send), for a fixed time. A route is measured
// in several rounds interleaved with the other route's (see run.ts), so each round keeps its raw
// latencies and the rounds are summed into one result.
import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  /** Seconds. */
  duration: number;
}

/** One round against one route. */
export interface Sample {
  seconds: number;
  /** Answers received, whatever their status. */
  responses: number;
  non2xx: number;
  /** Connection errors and timeouts: the server did not answer at all. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Milliseconds, one per answer. */
  latencies: number[];
}

export interface LoadResult {
  rps: number;
  /** Latency percentiles, milliseconds. */
  p50: number;
  p99: number;
  responses: number;
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** Runs one round; an abort stops it early, and the caller checks the signal afterwards. */
export function measure(url: string, headers: Record<string, string>, options: LoadOptions, signal?: AbortSignal): Promise<Sample> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    // autocannon may call back at once (bad options), before it has returned its instance.
    let stop = () => {};
    const instance = autocannon(
      { url, method: 'GET', headers, connections: options.connections, pipelining: 1, duration: options.duration, timeout: 10 },
      (error: unknown, result) => {
        signal?.removeEventListener('abort', stop);
        if (error) {
          reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
          return;
        }
        const statusCodes: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
        resolve({
          seconds: result.duration,
          responses: latencies.length,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes,
          latencies,
        });
      },
    );
    stop = () => instance.stop();
    signal?.addEventListener('abort', stop, { once: true });
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export function combine(samples: Sample[]): LoadResult {
  const statusCodes: Record<string, number> = {};
  for (const sample of samples) {
    for (const [code, n] of Object.entries(sample.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  }
  const latencies = Float64Array.from(samples.flatMap((s) => s.latencies)).sort();
  const sum = (pick: (s: Sample) => number) => samples.reduce((total, s) => total + pick(s), 0);
  const seconds = sum((s) => s.seconds);
  return {
    rps: seconds > 0 ? sum((s) => s.responses) / seconds : 0,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    responses: sum((s) => s.responses),
    seconds,
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    statusCodes,
  };
}
