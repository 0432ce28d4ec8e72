// The job that makes one delivery attempt. Declared apart from its handler so that emitting an
// event (anywhere in the service) does not pull in the HTTP client.
export const WEBHOOK_SEND = { kind: 'webhook.send', maxAttempts: 5, lane: 'webhooks' } as const;

export interface WebhookSendPayload {
  deliveryId: string;
  /**
   * The delivery's next_attempt_at when this job was queued. A job whose dueAt no longer matches
   * (the delivery was redelivered, or rescheduled) is stale and does nothing, so a delivery never
   * has two live attempt jobs.
   */
  dueAt: number;
}
