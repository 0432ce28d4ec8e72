// Graph insights shared by instagram, facebook and threads (platforms.md §10): reading metric
// rows by name, their numbers, and the one trait that breaks analytics elsewhere: Graph refuses
// a whole request when one of its metrics is invalid (renamed, retired, wrong for the period).
// readMetrics asks for every metric at once and, only when the platform refuses that request as
// invalid input, asks for each alone, so one bad metric fails alone beside the others' values.
import { PlatformError } from '../errors.ts';
import { graphTimeMs, list, numberOf, obj, str, type Json } from '../json.ts';
import type { AccountMetric, MetricFailure, MetricName, MetricReadout } from '../insights-types.ts';

/** A mapping table row: our name → the platform's metric name. */
export type MetricTable = Partial<Record<MetricName, string>>;

/** Reads the rows of the given platform metric names (one Graph call). */
export type RowsRead = (names: string[]) => Promise<Map<string, Json>>;

/** The `data` rows of an insights answer, by metric name. */
export function rowsByName(body: Json): Map<string, Json> {
  const rows = new Map<string, Json>();
  for (const item of list(body.data)) {
    const row = obj(item);
    const name = str(row.name);
    if (name) rows.set(name, row);
  }
  return rows;
}

/** A value as a number: numbers as they are, a map of counts (reactions by type) summed. */
export function numeric(value: unknown): number | null {
  const n = numberOf(value);
  if (n !== null) return n;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.values(value).reduce<number>((sum, v) => sum + (numberOf(v) ?? 0), 0);
  }
  return null;
}

/** A lifetime row's one number (`values[0].value`, or `total_value.value`). */
export function lifetimeValue(row: Json): number | null {
  const total = numberOf(obj(row.total_value).value);
  if (total !== null) return total;
  return numeric(obj(list(row.values)[0]).value);
}

/** An account row: its series, its total (given, or `stock` the last value, else the sum) and its breakdown. */
export function accountMetric(row: Json, stock = false): AccountMetric {
  const values = list(row.values).flatMap((item) => {
    const v = obj(item);
    const value = numeric(v.value);
    const endTime = graphTimeMs(v.end_time);
    return value === null || endTime === null ? [] : [{ endTime, value }];
  });
  const totalValue = obj(row.total_value);
  const breakdown = list(obj(list(totalValue.breakdowns)[0]).results).flatMap((item) => {
    const r = obj(item);
    const value = numberOf(r.value);
    return value === null ? [] : [{ key: list(r.dimension_values).map(String).join(', '), value }];
  });
  const given = numberOf(totalValue.value) ?? numberOf(obj(row).total_value);
  const total = given ?? (values.length ? (stock ? (values.at(-1)?.value ?? null) : values.reduce((s, v) => s + v.value, 0)) : null);
  return { period: str(row.period) ?? '', total, values, breakdown };
}

/**
 * Reads `metrics` through `table` with one call, or one call per metric when the platform
 * refuses the combined request as invalid input. A metric the table lacks is unsupported; one the
 * platform answers nothing for (Graph gives an empty array, not 0, for data it does not have) is
 * left out of the values. Failures other than invalid input fail the whole read.
 */
export async function readMetrics<V>(metrics: readonly MetricName[], table: MetricTable, read: RowsRead, convert: (row: Json, metric: MetricName) => V | null): Promise<MetricReadout<V>> {
  const wanted = metrics.flatMap((metric) => {
    const name = table[metric];
    return name ? [{ metric, name }] : [];
  });
  const readout: MetricReadout<V> = { values: {}, unsupported: metrics.filter((m) => !table[m]), failures: [] };
  if (!wanted.length) return readout;
  const take = (rows: Map<string, Json>, metric: MetricName, name: string) => {
    const row = rows.get(name);
    const value = row ? convert(row, metric) : null;
    if (value !== null) readout.values[metric] = value;
  };
  try {
    const rows = await read([...new Set(wanted.map((w) => w.name))]);
    for (const { metric, name } of wanted) take(rows, metric, name);
    return readout;
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind !== 'invalid') throw error;
    const [only] = wanted;
    if (only && wanted.length === 1) {
      readout.failures.push({ metric: only.metric, error });
      return readout;
    }
  }
  const failures: MetricFailure[] = [];
  for (const { metric, name } of wanted) {
    try {
      take(await read([name]), metric, name);
    } catch (error) {
      // Anything but a refusal of this metric (the token, a rate limit) fails the whole read.
      if (!(error instanceof PlatformError) || (error.kind !== 'invalid' && error.kind !== 'permission')) throw error;
      failures.push({ metric, error });
    }
  }
  readout.failures = failures;
  return readout;
}

/** Unix seconds for Graph's `since`/`until`. */
export const unixSeconds = (ms: number | null): number | undefined => (ms === null ? undefined : Math.floor(ms / 1000));
