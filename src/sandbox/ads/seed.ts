// Seeding ad accounts (issue 3 control API): the default Facebook user gets one active USD
// account, so `/me/adaccounts` answers out of the box.
import type { SandboxState } from '../core/state.ts';
import type { AdAccount } from './store.ts';

export interface AdAccountInput {
  ownerUserId?: string | undefined;
  name?: string | undefined;
  currency?: string | undefined;
  accountStatus?: number | undefined;
  timezoneName?: string | undefined;
  spendCap?: number | null | undefined;
}

export function addAdAccount(state: SandboxState, input: AdAccountInput = {}): AdAccount {
  const owner = input.ownerUserId ?? [...state.people.facebookUsers.keys()][0];
  if (!owner || !state.people.facebookUsers.has(owner)) throw new Error('ownerUserId: no such Facebook user');
  const accountId = state.ids.numeric('ad-account', '9', 15);
  const account: AdAccount = {
    id: `act_${accountId}`,
    accountId,
    ownerUserId: owner,
    name: input.name ?? `Sandbox Ad Account ${state.ads.accounts.size + 1}`,
    currency: input.currency ?? 'USD',
    accountStatus: input.accountStatus ?? 1,
    timezoneName: input.timezoneName ?? 'Etc/UTC',
    businessName: state.people.facebookUsers.get(owner)?.name ?? 'Sandbox Business',
    spendCap: input.spendCap ?? null,
    calls: [],
  };
  state.ads.accounts.set(account.id, account);
  return account;
}

export function seedAds(state: SandboxState): void {
  if (state.people.facebookUsers.size) addAdAccount(state, { name: 'Sandbox Bakery Ads' });
}
