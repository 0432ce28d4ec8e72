// Meta's webhook callback (platforms.md §8.1–8.2): the GET verification handshake, and signed
// POSTs stored raw and answered 200 at once; a job turns them into events (what comes from people
// with a stored conversation, and echoes of our own sends, are handled on arrival). Public routes: the
// verify token and the app-secret signature authenticate them, not an API key. An unsigned or
// wrongly signed POST is 401 and nothing is stored.
import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import { prepare } from '../../../db/prepared.ts';
import { errors } from '../../../http/errors.ts';
import { enqueue } from '../../../jobs/queue.ts';
import type { Api } from '../../../http/types.ts';
import { META_WEBHOOK_PATH, metaAppSecrets } from '../callback.ts';
import { envelopeKinds } from '../inbound-handler.ts';
import { noteOf, platformEventProcess } from '../process-job.ts';
import { handledOnArrival, recordMessaging } from '../messaging-handler.ts';
import { readEnvelope } from '../envelope.ts';
import { validSignature } from '../signature.ts';

// A NUL escaped in a JSON string: \u0000 whose backslash is not itself escaped (not the end of
// an even run of backslashes, as in \\u0000, which is a backslash and the text u0000).
const ESCAPED_NUL = /(?<!\\)(?:\\\\)*\\u0000/;

/**
 * PostgreSQL refuses a NUL character in text: a signed body carrying one, raw or escaped (it
 * reaches the `object` column, and the inbox will store its strings), answered 500 there. This
 * route keeps its bytes raw for the signature, so the text guard of the other routes does not
 * see them; it refuses only NUL, as signed bodies are Meta's, not a client's.
 */
const hasNul = (text: string): boolean => text.includes('\0') || ESCAPED_NUL.test(text);

// Compiled once (db/prepared.ts): every platform event comes through here.
const storeBody = prepare((db, id: string, object: string | null, body: string, now: number) =>
  db
    .insertInto('platform_webhook_events')
    .values({ id, family: 'meta', object, body, status: 'pending', note: null, received_at: now, processed_at: null })
    .onConflict((oc) => oc.column('id').doNothing()),
);
const storeHandled = prepare((db, id: string, object: string | null, body: string, note: string, now: number) =>
  db
    .insertInto('platform_webhook_events')
    .values({ id, family: 'meta', object, body, status: 'processed', note, received_at: now, processed_at: now })
    .onConflict((oc) => oc.column('id').doNothing()),
);
const ECHOES_NOTE = 'echoes of messages sent through the service: nothing to record';
const ARRIVAL_NOTE = 'recorded on arrival';

export function metaWebhook(api: Api): void {
  api.get(
    META_WEBHOOK_PATH,
    {
      config: { public: true },
      schema: {
        hide: true,
        querystring: Type.Object({
          'hub.mode': Type.Optional(Type.String()),
          'hub.verify_token': Type.Optional(Type.String()),
          'hub.challenge': Type.Optional(Type.String()),
        }),
      },
    },
    (request, reply) => {
      const expected = request.server.deps.platforms.metaWebhookVerifyToken;
      const q = request.query;
      if (q['hub.mode'] !== 'subscribe' || !expected || q['hub.verify_token'] !== expected || q['hub.challenge'] === undefined) {
        return reply.code(403).type('text/plain').send('verification failed');
      }
      return reply.code(200).type('text/plain').send(q['hub.challenge']);
    },
  );

  // The signature covers the exact bytes: this scope keeps JSON bodies raw.
  void api.register((scope, _options, done) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(
      META_WEBHOOK_PATH,
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const { deps } = request.server;
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['x-hub-signature-256'];
        if (!validSignature(typeof signature === 'string' ? signature : undefined, body, metaAppSecrets(deps.platforms))) {
          return reply.code(401).send({ error: { message: 'X-Hub-Signature-256 is missing or does not match the body' } });
        }
        const text = body.toString('utf8');
        if (hasNul(text)) throw errors.invalid('body', 'must not contain a NUL character');
        const now = deps.clock.now();
        const id = createHash('sha256').update(body).digest('hex');
        const envelope = readEnvelope(text);
        const { object } = envelopeKinds(envelope ?? text);
        const arriving = envelope ? await handledOnArrival(deps.store, envelope, now) : null;
        // The echo of every message sent through the service comes back here: when the message
        // is stored already, the body is recorded as handled and no job is queued for it.
        if (arriving && 'echoes' in arriving) {
          await storeHandled.execute(deps.store.db, id, object, text, ECHOES_NOTE, now);
          return reply.code(200).type('text/plain').send('EVENT_RECEIVED');
        }
        // What comes from people with a stored conversation is recorded with the body, in one
        // transaction. A body stored before (a redelivery) records nothing twice: each item's
        // inbox row is unique. Should recording fail, the body goes the usual way, to its job.
        if (arriving) {
          try {
            await deps.store.db.transaction().execute(async (trx) => {
              const emitted = await recordMessaging(trx, deps, arriving.records, now, now);
              await storeHandled.execute(trx, id, object, text, `${ARRIVAL_NOTE}: ${noteOf([], [], emitted) ?? 'nothing new'}`, now);
            });
            return reply.code(200).type('text/plain').send('EVENT_RECEIVED');
          } catch (error) {
            request.log.warn({ err: error }, 'recording messaging items at once failed; their job will');
          }
        }
        await deps.store.db.transaction().execute(async (trx) => {
          const inserted = await storeBody.execute(trx, id, object, text, now);
          // A redelivery of the same body is stored once and processed once.
          if ((inserted.numAffectedRows ?? 0n) === 0n) return;
          await enqueue(trx, deps.store, now, platformEventProcess, { eventId: id });
        });
        return reply.code(200).type('text/plain').send('EVENT_RECEIVED');
      },
    );
    done();
  });
}
