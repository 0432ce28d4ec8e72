// The messaging half of platform_event.process: a stored body's `entry[].messaging` items
// (meta-messaging.ts) become conversations, messages and message.* events for every
// organization's account of that Page or Instagram account (conversations/inbound.ts). In two
// steps, as the job runs them: prepare() reads the accounts and the new people's profiles from
// the platform outside the transaction; record() writes, inside it, with marking the row.
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import type { MessagingParticipant } from '../../platforms/types.ts';
import { accountsOf, prepareProfiles, recordMessagingItem } from '../conversations/inbound.ts';
import { MESSAGING_KINDS, parseMetaMessaging, type MessagingItem } from './meta-messaging.ts';
import type { Json } from './meta-changes.ts';

export interface PreparedMessaging {
  items: MessagingItem[];
  ignored: string[];
  accounts: AccountRow[];
  profiles: Map<string, MessagingParticipant>;
}

/** Drops the messaging kinds from meta-changes.ts's `unhandled`: this handler reads them. */
export const withoutMessaging = (unhandled: string[]): string[] => unhandled.filter((kind) => !MESSAGING_KINDS.includes(kind));

export async function prepareMessaging(deps: Pick<AppDeps, 'store' | 'sealer' | 'platforms'>, body: string | Json): Promise<PreparedMessaging> {
  const { items, ignored } = parseMetaMessaging(body);
  if (!items.length) return { items, ignored, accounts: [], profiles: new Map() };
  const accounts = await accountsOf(deps.store.db, items);
  return { items, ignored, accounts, profiles: await prepareProfiles(deps, accounts, items) };
}

/** The number of events emitted. */
export async function recordMessaging(trx: Kysely<Database>, deps: Pick<AppDeps, 'store'>, prepared: PreparedMessaging, receivedAt: number, now: number): Promise<number> {
  let emitted = 0;
  for (const item of prepared.items) {
    for (const account of prepared.accounts.filter((a) => a.platform === item.platform && a.platform_user_id === item.accountPlatformId)) {
      if (await recordMessagingItem({ db: trx, store: deps.store, now }, account, item, prepared.profiles, receivedAt)) emitted++;
    }
  }
  return emitted;
}
