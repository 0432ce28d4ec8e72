// The job that makes one delivery attempt. Declared apart from its handler so that emitting an
// event (anywhere in the service) does not pull in the HTTP client.
import { Type } from 'typebox';
import { jobKind } from '../../jobs/catalog.ts';

export const webhookSend = jobKind(
  'webhook.send',
  Type.Object({
    deliveryId: Type.String(),
    /**
     * The delivery's next_attempt_at when this job was queued. A job whose dueAt no longer matches
     * (the delivery was redelivered, or rescheduled) is stale and does nothing, so a delivery never
     * has two live attempt jobs.
     */
    dueAt: Type.Number(),
  }),
  { maxAttempts: 5, lane: 'webhooks' },
);
