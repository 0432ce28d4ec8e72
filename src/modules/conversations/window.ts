// The messaging windows (contract Limits, DESIGN §2): a plain message within 24 hours of the
// person's last message; with tag HUMAN_AGENT within 7 days (instagram and Messenger; WhatsApp
// has no tag). Both count from the person's last inbound message; a person who never wrote has
// no window at all. Checked before any platform call, so a refused message is neither sent nor
// stored.
import { apiError } from '../../http/errors.ts';
import type { MessagingWindowView } from './schemas.ts';

export const WINDOW_MS = 24 * 3_600_000;
export const HUMAN_AGENT_MS = 7 * 24 * 3_600_000;

const hasHumanAgentTag = (platform: string) => platform === 'instagram' || platform === 'facebook';
const iso = (ms: number) => new Date(ms).toISOString();

export function messagingWindow(platform: string, lastInboundAt: number | null, now: number): MessagingWindowView {
  if (lastInboundAt === null) return { open: false, expiresAt: null, humanAgentExpiresAt: null };
  return {
    open: now <= lastInboundAt + WINDOW_MS,
    expiresAt: iso(lastInboundAt + WINDOW_MS),
    humanAgentExpiresAt: hasHumanAgentTag(platform) ? iso(lastInboundAt + HUMAN_AGENT_MS) : null,
  };
}

/** 409 outside_messaging_window unless a message (with `tag`, if given) may be sent now. */
export function requireOpenWindow(platform: string, lastInboundAt: number | null, now: number, tag: 'HUMAN_AGENT' | undefined): void {
  if (lastInboundAt === null) throw apiError('outside_messaging_window', 'The person has not written to the account: a conversation must start with their message; nothing was sent');
  if (now <= lastInboundAt + WINDOW_MS) return;
  if (tag === 'HUMAN_AGENT' && now <= lastInboundAt + HUMAN_AGENT_MS) return;
  const since = `the person's last message was at ${iso(lastInboundAt)}`;
  throw apiError(
    'outside_messaging_window',
    tag === 'HUMAN_AGENT' || !hasHumanAgentTag(platform)
      ? `Outside the messaging window (${since}); nothing was sent`
      : `Outside the 24-hour messaging window (${since}); within 7 days a human agent may answer with tag HUMAN_AGENT; nothing was sent`,
  );
}
