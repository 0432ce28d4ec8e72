// Insights periods (platforms.md §9.6): `date_preset` relative to the sandbox clock's day, or
// `time_range` {since, until} (which wins), cut by `time_increment` (1–90 days, `monthly`,
// `all_days`). Days are UTC days (the sandbox's ad accounts default to Etc/UTC).
import type { SandboxState } from '../core/state.ts';
import { graphError } from '../meta/graph-error.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { DAY_MS } from './metrics.ts';

export interface Bucket {
  since: number;
  until: number;
  sinceText: string;
  untilText: string;
}

const day = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const text = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthStart = (ms: number, back = 0) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1);
};

export function dateRange(state: SandboxState, input: GraphInput): { since: number; until: number } {
  const today = day(state.clock.now());
  const rawRange = str(input, 'time_range') ?? (input.time_range && typeof input.time_range === 'object' ? JSON.stringify(input.time_range) : undefined);
  if (rawRange) {
    let parsed: { since?: unknown; until?: unknown } = {};
    try {
      parsed = JSON.parse(rawRange) as { since?: unknown; until?: unknown };
    } catch {
      // answered below
    }
    const since = typeof parsed.since === 'string' ? Date.parse(`${parsed.since}T00:00:00Z`) : NaN;
    const until = typeof parsed.until === 'string' ? Date.parse(`${parsed.until}T00:00:00Z`) : NaN;
    if (!Number.isFinite(since) || !Number.isFinite(until) || since > until) throw graphError({ code: 100, message: '(#100) Param time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"} with since <= until' });
    return { since, until };
  }
  const preset = str(input, 'date_preset') ?? 'last_30d';
  const lastN = /^last_(\d+)d$/.exec(preset);
  if (lastN) return { since: today - Number(lastN[1]) * DAY_MS, until: today - DAY_MS };
  const weekday = new Date(today).getUTCDay();
  const presets: Record<string, { since: number; until: number }> = {
    today: { since: today, until: today },
    yesterday: { since: today - DAY_MS, until: today - DAY_MS },
    this_month: { since: monthStart(today), until: today },
    last_month: { since: monthStart(today, 1), until: monthStart(today) - DAY_MS },
    this_quarter: { since: monthStart(today, new Date(today).getUTCMonth() % 3), until: today },
    last_quarter: { since: monthStart(today, (new Date(today).getUTCMonth() % 3) + 3), until: monthStart(today, new Date(today).getUTCMonth() % 3) - DAY_MS },
    this_year: { since: Date.UTC(new Date(today).getUTCFullYear(), 0, 1), until: today },
    last_year: { since: Date.UTC(new Date(today).getUTCFullYear() - 1, 0, 1), until: Date.UTC(new Date(today).getUTCFullYear(), 0, 1) - DAY_MS },
    this_week_mon_today: { since: today - ((weekday + 6) % 7) * DAY_MS, until: today },
    this_week_sun_today: { since: today - weekday * DAY_MS, until: today },
    last_week_mon_sun: { since: today - ((weekday + 6) % 7) * DAY_MS - 7 * DAY_MS, until: today - ((weekday + 6) % 7) * DAY_MS - DAY_MS },
    last_week_sun_sat: { since: today - weekday * DAY_MS - 7 * DAY_MS, until: today - weekday * DAY_MS - DAY_MS },
    maximum: { since: today - 37 * 30 * DAY_MS, until: today },
    data_maximum: { since: today - 37 * 30 * DAY_MS, until: today },
  };
  const range = presets[preset];
  if (!range) throw graphError({ code: 100, message: `(#100) Param date_preset must be one of {${[...Object.keys(presets), 'last_3d', 'last_7d', 'last_14d', 'last_28d', 'last_30d', 'last_90d'].join(', ')}}` });
  return range;
}

export function buckets(range: { since: number; until: number }, increment: string): Bucket[] {
  const make = (since: number, until: number): Bucket => ({ since, until, sinceText: text(since), untilText: text(until) });
  if (increment === 'all_days') return [make(range.since, range.until)];
  const out: Bucket[] = [];
  if (increment === 'monthly') {
    for (let start = range.since; start <= range.until; ) {
      const next = monthStart(start, -1);
      out.push(make(start, Math.min(next - DAY_MS, range.until)));
      start = next;
    }
    return out;
  }
  const step = Number(increment);
  if (!Number.isInteger(step) || step < 1 || step > 90) throw graphError({ code: 100, message: '(#100) Param time_increment must be an integer from 1 to 90, monthly or all_days' });
  for (let start = range.since; start <= range.until; start += step * DAY_MS) out.push(make(start, Math.min(start + (step - 1) * DAY_MS, range.until)));
  return out;
}
