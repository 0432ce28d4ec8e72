// The `platform_event.process` job: turns a stored inbound Meta webhook into inbox records and
// outgoing events. In this issue it only reads the envelope and records which kinds it carries
// (`page.feed`, `instagram.comments`, `page.messaging` …): turning comments, mentions and
// messages into comment.received / message.* events is the inbox issue's work, which will add a
// handler per kind here and re-run the rows left `unhandled`. Nothing is pretended: rows stay
// `unhandled`, with a note naming the kinds waiting for a handler.
import { Type } from 'typebox';
import type { AppDeps } from '../../deps.ts';
import { defineJob, jobKind } from '../../jobs/catalog.ts';

export const platformEventProcess = jobKind('platform_event.process', Type.Object({ eventId: Type.String() }), { maxAttempts: 5 });

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** The kinds of one envelope: `object.field` per change, `object.messaging` per messaging item. */
export function envelopeKinds(body: string): { object: string | null; kinds: string[] } {
  let parsed: Json;
  try {
    parsed = obj(JSON.parse(body));
  } catch {
    return { object: null, kinds: [] };
  }
  const object = typeof parsed.object === 'string' ? parsed.object : null;
  const kinds = new Set<string>();
  for (const entry of Array.isArray(parsed.entry) ? parsed.entry.map(obj) : []) {
    for (const change of Array.isArray(entry.changes) ? entry.changes.map(obj) : []) kinds.add(`${object ?? '?'}.${String(change.field)}`);
    if (Array.isArray(entry.messaging) && entry.messaging.length) kinds.add(`${object ?? '?'}.messaging`);
  }
  return { object, kinds: [...kinds] };
}

export function platformEventJob(deps: Pick<AppDeps, 'store' | 'clock'>) {
  return defineJob(platformEventProcess, {
    timeoutMs: 30_000,
    async run({ eventId }) {
      const row = await deps.store.db.selectFrom('platform_webhook_events').selectAll().where('id', '=', eventId).executeTakeFirst();
      if (!row || row.status !== 'pending') return;
      const { kinds } = envelopeKinds(row.body);
      await deps.store.db
        .updateTable('platform_webhook_events')
        .set({ status: 'unhandled', note: `no handler yet for ${kinds.join(', ') || 'this payload'} (inbox issue)`, processed_at: deps.clock.now() })
        .where('id', '=', eventId)
        .where('status', '=', 'pending')
        .execute();
    },
  });
}
