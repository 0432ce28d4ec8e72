// The sends this node has in flight, by the platform account (its platform and id there, as
// webhooks name it) and the person. The platform's echo and delivery receipt of a send usually
// arrive before the send has stored its message id; a webhook handled by the node making that
// send waits for it here, before any work of its own (a few milliseconds), and is then recorded
// at once, instead of going to a job that finds the send unfinished and runs again a second
// later. The `sending_until` mark in the store stays the rule (conversations/inbound.ts):
// another node's sends are not in this registry, and their webhooks take that slower path.
import type { Store } from '../../db/database.ts';

/** How long a webhook waits for a send here; the platform's own wait for our answer is longer. */
const WAIT_MS = 5_000;

/** Whom a send goes to and from: the account as the platform names it, and the person. */
export interface SendParties {
  platform: string;
  platformUserId: string;
  participantId: string;
}

const keyOf = (p: SendParties) => `${p.platform}:${p.platformUserId}:${p.participantId}`;

const registries = new WeakMap<Store, Map<string, Promise<void>>>();

function registryOf(store: Store): Map<string, Promise<void>> {
  let registry = registries.get(store);
  if (!registry) {
    registry = new Map();
    registries.set(store, registry);
  }
  return registry;
}

/** Runs the send, known as in flight between its parties until it has settled. */
export async function trackSend<T>(store: Store, parties: SendParties, send: () => Promise<T>): Promise<T> {
  const registry = registryOf(store);
  const key = keyOf(parties);
  const running = send();
  const settled = running.then(
    () => undefined,
    () => undefined,
  );
  registry.set(key, settled);
  try {
    return await running;
  } finally {
    // A later send to the same person may have taken the slot meanwhile: leave it.
    if (registry.get(key) === settled) registry.delete(key);
  }
}

/** Waits for this node's send between the parties to end, if one is in flight (at most WAIT_MS). */
export async function afterLocalSend(store: Store, parties: SendParties): Promise<void> {
  const settled = registries.get(store)?.get(keyOf(parties));
  if (!settled) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, WAIT_MS);
    timer.unref();
  });
  try {
    await Promise.race([settled, late]);
    // The send's own answer is written in the microtasks that follow its end: the webhook's
    // work (synchronous on SQLite) goes after it instead of delaying it.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    clearTimeout(timer);
  }
}
