// The messaging half of platform_event.process: a stored body's `entry[].messaging` items
// (meta-messaging.ts) become conversations, messages and message.* events for every
// organization's account of that Page or Instagram account (conversations/inbound.ts). In two
// steps, as the job runs them: prepare() reads the accounts and the new people's profiles from
// the platform outside the transaction; record() writes, inside it, with marking the row.
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import type { Store } from '../../db/database.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import type { MessagingParticipant } from '../../platforms/types.ts';
import { accountsOf, prepareProfiles, recordMessagingItem } from '../conversations/inbound.ts';
import { conversationExists, messageByPlatformId } from '../conversations/queries.ts';
import { afterLocalSend } from '../conversations/sends-in-flight.ts';
import { MESSAGING_KINDS, parseMetaMessaging, type MessagingItem } from './meta-messaging.ts';
import type { Json } from './envelope.ts';
import { inboundHandler } from './inbound-handler.ts';

export interface PreparedMessaging {
  items: MessagingItem[];
  ignored: string[];
  accounts: AccountRow[];
  profiles: Map<string, MessagingParticipant>;
}

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

/** The kinds recorded on arrival from a person with a stored conversation (an echo not ours is the job's). */
const ON_ARRIVAL: ReadonlySet<MessagingItem['kind']> = new Set(['message', 'postback', 'reaction', 'delivery', 'read']);

/**
 * What the receiving route handles at once, with no job: a body holding only echoes of messages
 * the service sent and has stored (they add nothing, conversations/inbound.ts: the body is
 * recorded as processed), or only items from people whose conversation is stored, with no send
 * to them in flight: messages, postbacks, reactions, delivery and read receipts. These need no
 * platform read (a new person's profile is one), so the route records them with the body.
 * Either for every account of their Page or Instagram account. Null for anything else, which
 * goes the usual way: a new person, an echo not (yet) stored, or an item that may concern a
 * message whose send has not stored it yet, among them. A send to the person that this node has
 * in flight is waited for first (conversations/sends-in-flight.ts).
 */
export async function handledOnArrival(store: Store, body: Json, now: number): Promise<{ echoes: true } | { records: PreparedMessaging } | null> {
  const entries = Array.isArray(body.entry) ? body.entry : [];
  if (entries.some((entry) => entry && typeof entry === 'object' && 'changes' in entry)) return null;
  const { items, ignored } = parseMetaMessaging(body);
  if (!items.length || ignored.length) return null;
  const echoes = items.every((item) => item.kind === 'echo' && item.mid !== null);
  if (!echoes && !items.every((item) => ON_ARRIVAL.has(item.kind))) return null;
  // Echoes and receipts are mostly about a send this node is making: it ends first, with its answer.
  for (const item of items) await afterLocalSend(store, { platform: item.platform, platformUserId: item.accountPlatformId, participantId: item.participantId });
  const accounts = await accountsOf(store.db, items);
  for (const item of items) {
    const mine = accounts.filter((a) => a.platform === item.platform && a.platform_user_id === item.accountPlatformId);
    if (!mine.length) return null;
    for (const account of mine) {
      if (echoes) {
        if (!(await messageByPlatformId.execute(store.db, account.id, item.mid ?? '')).rows.length) return null;
        continue;
      }
      const [conversation] = (await conversationExists.execute(store.db, account.id, item.participantId)).rows;
      // A send in flight (another node's) has not stored its message yet: what may concern it is left to the job, later.
      if (!conversation || (conversation.sending_until !== null && Number(conversation.sending_until) > now)) return null;
    }
  }
  return echoes ? { echoes } : { records: { items, ignored, accounts, profiles: new Map() } };
}

/** The registry's messaging handler (handlers.ts): the job's way; handledOnArrival() is the route's. */
export const messagingHandler = inboundHandler({
  name: 'messaging',
  kinds: MESSAGING_KINDS,
  parse: (body, { deps }) => prepareMessaging(deps, body),
  record: recordMessaging,
});
