// Updates and deletes of ad objects (platforms.md §9.1: `POST /{id}` → {"success":true},
// `DELETE /{id}`): name, status, budgets (the budget type set at creation stays), schedule and
// targeting. A deleted object keeps answering reads with status DELETED, as on the platform.
import type { RouteContext } from '../core/router.ts';
import { graphError } from '../meta/graph-error.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { refreshDelivery } from './delivery.ts';
import { adsInvalid, budget, time } from './rules.ts';
import type { Ad, AdSet, Campaign, ConfiguredStatus } from './store.ts';
import { parseTargeting } from './targeting.ts';

const STATUSES: ConfiguredStatus[] = ['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED'];

function status(input: GraphInput, current: ConfiguredStatus): ConfiguredStatus {
  const value = str(input, 'status');
  if (value === undefined) return current;
  if (!STATUSES.includes(value as ConfiguredStatus)) throw graphError({ code: 100, message: `(#100) Param status must be one of {${STATUSES.join(', ')}}` });
  if (current === 'DELETED') throw adsInvalid('Object deleted', 'A deleted object cannot be changed.');
  return value as ConfiguredStatus;
}

function budgets(ctx: RouteContext, input: GraphInput, target: { dailyBudget: number | null; lifetimeBudget: number | null }, currency: string): void {
  const min = ctx.state.settings.ads.minDailyBudget;
  const daily = budget(input, 'daily_budget', min, currency);
  const lifetime = budget(input, 'lifetime_budget', min, currency);
  if (daily !== null && target.lifetimeBudget !== null) throw adsInvalid('Budget type cannot change', 'This object has a lifetime budget: update lifetime_budget.');
  if (lifetime !== null && target.dailyBudget !== null) throw adsInvalid('Budget type cannot change', 'This object has a daily budget: update daily_budget.');
  if (daily !== null) target.dailyBudget = daily;
  if (lifetime !== null) target.lifetimeBudget = lifetime;
}

const currencyOf = (ctx: RouteContext, accountId: string) => ctx.state.ads.accounts.get(accountId)?.currency ?? 'USD';

export function updateCampaign(ctx: RouteContext, input: GraphInput, c: Campaign): unknown {
  c.status = status(input, c.status);
  c.name = str(input, 'name') ?? c.name;
  if (c.dailyBudget !== null || c.lifetimeBudget !== null) budgets(ctx, input, c, currencyOf(ctx, c.accountId));
  else if (str(input, 'daily_budget') || str(input, 'lifetime_budget')) throw adsInvalid('No campaign budget', 'This campaign has ad set budgets: update them on the ad sets.');
  c.updatedAt = ctx.state.clock.now();
  refreshDelivery(ctx.state);
  return { success: true };
}

export function updateAdSet(ctx: RouteContext, input: GraphInput, s: AdSet): unknown {
  s.status = status(input, s.status);
  s.name = str(input, 'name') ?? s.name;
  budgets(ctx, input, s, currencyOf(ctx, s.accountId));
  const end = time(input, 'end_time');
  if (end !== undefined) {
    if (end <= s.startTime || end <= ctx.state.clock.now()) throw adsInvalid('Invalid end time', 'end_time must be after start_time and in the future.');
    s.endTime = end;
  }
  if (input.targeting !== undefined) s.targeting = parseTargeting(ctx.state, s.accountId, input.targeting, false);
  if (str(input, 'bid_amount')) s.bidAmount = Number(str(input, 'bid_amount'));
  s.updatedAt = ctx.state.clock.now();
  refreshDelivery(ctx.state);
  return { success: true };
}

export function updateAd(ctx: RouteContext, input: GraphInput, ad: Ad): unknown {
  const next = status(input, ad.status);
  if (next === 'ACTIVE' && ad.activatedAt === null) ad.activatedAt = ctx.state.clock.now();
  ad.status = next;
  ad.name = str(input, 'name') ?? ad.name;
  ad.updatedAt = ctx.state.clock.now();
  refreshDelivery(ctx.state);
  return { success: true };
}

export function deleteObject(ctx: RouteContext, object: { status: ConfiguredStatus; updatedAt: number }): unknown {
  object.status = 'DELETED';
  object.updatedAt = ctx.state.clock.now();
  refreshDelivery(ctx.state);
  return { success: true };
}
