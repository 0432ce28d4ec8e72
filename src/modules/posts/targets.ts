// Checks of a NewPost beyond its JSON schema: publishNow vs scheduledFor, distinct accounts of
// this organization whose platform matches, and each target's platformSpecificData.
import { errors } from '../../http/errors.ts';
import type { Tenant } from '../../db/tenant.ts';
import type { AccountRow, PostTargetRow } from '../../db/schema.ts';
import type { NewPost } from './schemas.ts';
import { TARGET_PLATFORMS } from './schemas.ts';
import { isPostPlatform, validateTarget, type TargetResult } from './validate/index.ts';

/** Clock skew tolerated on scheduledFor (DESIGN §2 Posts). */
export const SCHEDULE_SKEW_MS = 60_000;

/** A target as validated: its platform with the typed options (TargetResult), and its account. */
export type ResolvedTarget = TargetResult & {
  accountId: string;
  input: Record<string, unknown>;
  approvalRequired: boolean;
  /** The account as read (for the publishing-window check, without reading it again). */
  account: AccountRow;
};

export function checkSchedule(body: Pick<NewPost, 'scheduledFor' | 'publishNow'>, now: number): number | null {
  if (body.scheduledFor === undefined) return null;
  if (body.publishNow === true) throw errors.invalid('scheduledFor', 'cannot be combined with publishNow: true');
  const at = Date.parse(body.scheduledFor);
  if (Number.isNaN(at)) throw errors.invalid('scheduledFor', 'must be a date-time');
  if (at < now - SCHEDULE_SKEW_MS) throw errors.invalid('scheduledFor', 'must be in the future');
  return at;
}

export async function resolveTargets(tenant: Tenant, body: NewPost, live: boolean, allowHttp: boolean): Promise<ResolvedTarget[]> {
  const seen = new Map<string, number>();
  body.platforms.forEach((target, i) => {
    const first = seen.get(target.accountId);
    if (first !== undefined) throw errors.invalid(`platforms[${i}].accountId`, `the same account as platforms[${first}]; targets must be distinct accounts`);
    seen.set(target.accountId, i);
  });
  const accounts = await tenant
    .selectFrom('accounts')
    .selectAll()
    .where('id', 'in', body.platforms.map((t) => t.accountId))
    .execute();
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return body.platforms.map((target, i) => {
    const path = `platforms[${i}]`;
    const account = byId.get(target.accountId);
    if (!account) throw errors.invalid(`${path}.accountId`, 'no such account');
    if (target.platform !== undefined) {
      if (!TARGET_PLATFORMS.includes(target.platform)) throw errors.invalid(`${path}.platform`, `must be one of ${TARGET_PLATFORMS.join(', ')}`);
      if (target.platform !== account.platform) throw errors.invalid(`${path}.platform`, `does not match the account, which is a ${account.platform} account`);
    }
    const platform = account.platform;
    if (!isPostPlatform(platform)) throw errors.invalid(`${path}.accountId`, `${platform} accounts cannot publish posts`);
    const input = (target.platformSpecificData ?? {}) as Record<string, unknown>;
    const result = validateTarget(platform, { content: body.content, data: input, live, path, allowHttp, account: { platformUserId: account.platform_user_id ?? '', metadata: JSON.parse(account.metadata) as Record<string, unknown> } });
    return { accountId: account.id, input, approvalRequired: account.approval_required === 1, account, ...result };
  });
}

/**
 * Validates stored targets again (new content, or going live). Targets exist for post platforms
 * only; one of another platform would keep no options.
 */
export function revalidateTargets(targets: PostTargetRow[], content: string, live: boolean, allowHttp: boolean): Array<Pick<TargetResult, 'options' | 'warnings'>> {
  return targets.map((t) =>
    isPostPlatform(t.platform)
      ? validateTarget(t.platform, { content, data: JSON.parse(t.input) as Record<string, unknown>, live, path: `platforms[${t.position}]`, allowHttp })
      : { options: {}, warnings: [] },
  );
}

/** Whether approval applies: the key or organization (caller), or any target account. */
export async function accountsRequireApproval(tenant: Tenant, accountIds: string[]): Promise<boolean> {
  if (!accountIds.length) return false;
  const row = await tenant.selectFrom('accounts').select('id').where('id', 'in', accountIds).where('approval_required', '=', 1).executeTakeFirst();
  return row !== undefined;
}
