// Shared pieces of Graph insights (platforms.md §10): plausible numbers that are the same on
// every read (a hash of the object, the metric and the day, scaled by the audience), the
// metric row shapes (`values[]` time series, `total_value` with breakdowns), day ranges from
// `since`/`until`, and the "invalid metric" error.
import { createHash } from 'node:crypto';
import { invalidParameter } from './graph-error.ts';
import { list, str, type GraphInput } from './params.ts';
import { graphTime } from './store.ts';

const DAY_MS = 86_400_000;

/** A stable number in [min, max] for a key. */
export function stableNumber(key: string, min: number, max: number): number {
  const n = createHash('sha256').update(key).digest().readUInt32BE(0);
  return min + (n % Math.max(1, max - min + 1));
}

export function title(name: string): string {
  const words = name.replace(/^(page|post|ig_reels)_/, '').split('_');
  return words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

/** `retired`: names the platform renamed (the insights store), refused like unknown ones. */
export function requestedMetrics(input: GraphInput, allowed: readonly string[], retired: (metric: string) => boolean = () => false): string[] {
  const metrics = list(input, 'metric') ?? [];
  if (!metrics.length) throw invalidParameter('(#100) The parameter metric is required');
  metrics.forEach((metric, i) => {
    if (!allowed.includes(metric) || retired(metric)) throw invalidParameter(`(#100) metric[${i}] must be one of the following values: ${allowed.join(', ')}`);
  });
  return metrics;
}

export interface MetricRow {
  name: string;
  period: string;
  values?: Array<{ value: unknown; end_time?: string }>;
  total_value?: { value: number; breakdowns?: Array<{ dimension_keys: string[]; results: Array<{ dimension_values: string[]; value: number }> }> };
  title: string;
  description: string;
  id: string;
}

export function row(objectId: string, name: string, period: string, body: Pick<MetricRow, 'values' | 'total_value'>): MetricRow {
  return { name, period, ...body, title: title(name), description: `The sandbox's ${title(name).toLowerCase()} for this object.`, id: `${objectId}/insights/${name}/${period}` };
}

/** Day ends from `since`/`until` (unix seconds): at most `maxDays`; default the last two days. */
export function dayEnds(input: GraphInput, now: number, maxDays = 30): number[] {
  const until = str(input, 'until') ? Number(str(input, 'until')) * 1000 : now;
  const since = str(input, 'since') ? Number(str(input, 'since')) * 1000 : until - 2 * DAY_MS;
  if (!Number.isFinite(since) || !Number.isFinite(until) || since > until) throw invalidParameter('(#100) since must be before until');
  if (until - since > maxDays * DAY_MS) throw invalidParameter(`(#100) There cannot be more than ${maxDays} days (${maxDays * 86_400} s) between since and until`);
  const ends: number[] = [];
  const first = Math.floor(since / DAY_MS) * DAY_MS + DAY_MS;
  for (let end = first; end <= Math.max(until, first); end += DAY_MS) ends.push(end);
  return ends;
}

export const endTime = (ms: number): string => graphTime(ms);
