// Webhook subscriptions made through the Graph `/{app-id}/subscriptions` edge, and the log of
// deliveries the sandbox made (for the control API and tests).
export interface WebhookSubscription {
  appId: string;
  object: string;
  callbackUrl: string;
  fields: string[];
  verifyToken: string;
  includeValues: boolean;
  active: boolean;
}

export interface WebhookDelivery {
  at: string;
  appId: string;
  object: string;
  url: string;
  status: number | null;
  error: string | null;
  body: string;
}

export class WebhookRegistry {
  readonly subscriptions = new Map<string, WebhookSubscription>();
  readonly deliveries: WebhookDelivery[] = [];

  put(subscription: WebhookSubscription): void {
    this.subscriptions.set(`${subscription.appId}:${subscription.object}`, subscription);
  }

  forApp(appId: string): WebhookSubscription[] {
    return [...this.subscriptions.values()].filter((s) => s.appId === appId);
  }

  remove(appId: string, object?: string): void {
    for (const key of [...this.subscriptions.keys()]) {
      if (key.startsWith(`${appId}:`) && (!object || key === `${appId}:${object}`)) this.subscriptions.delete(key);
    }
  }
}
