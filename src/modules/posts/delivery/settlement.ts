// What a post becomes once none of its targets is open, and the event that says so: the end of
// the delivery state machine, written once for both stores. Every target published: published;
// none: failed; some: partial. Published announces post.published; failed and partial
// announce post.failed.
import type { PostStatus, TargetStatus } from '../../../db/schema.ts';
import type { EventData } from '../../events/catalog.ts';

export type SettledType = 'post.published' | 'post.failed';

export interface Settlement {
  status: PostStatus;
  type: SettledType;
  data: EventData<SettledType>;
}

/** The post's outcome from all its targets' statuses, none of them open. */
export function settlementOf(postId: string, statuses: readonly TargetStatus[]): Settlement {
  const published = statuses.filter((status) => status === 'published').length;
  const status: PostStatus = published === statuses.length ? 'published' : published === 0 ? 'failed' : 'partial';
  const type: SettledType = status === 'published' ? 'post.published' : 'post.failed';
  return { status, type, data: { postId, status } };
}

/**
 * The post's other targets, as far as its outcome goes once none is open: none; all published;
 * none published; some of each. A store that settles in one statement classifies the others
 * and takes the outcome of their class from `settlementsByOthers`.
 */
export const OTHERS = ['none', 'all_published', 'none_published', 'mixed'] as const;
const EXAMPLES: Record<(typeof OTHERS)[number], TargetStatus[]> = { none: [], all_published: ['published'], none_published: ['failed'], mixed: ['published', 'failed'] };

/** The settlement for each class of OTHERS (in its order), for a target that closes with `status`. */
export const settlementsByOthers = (postId: string, status: TargetStatus): Settlement[] => OTHERS.map((others) => settlementOf(postId, [status, ...EXAMPLES[others]]));

/** Every event a settlement can announce. */
export const SETTLED_TYPES: readonly SettledType[] = ['post.published', 'post.failed'];
