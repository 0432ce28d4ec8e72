// The Post and PostTarget resources as the API shows them, and the NewPost body.
import { Type, type Static } from 'typebox';
import type { PostRow, PostTargetRow } from '../../db/schema.ts';
import { NullableTimestamp, Timestamp } from '../../http/schemas.ts';
import { publishWarnings } from '../../platforms/publisher.ts';
import type { PublishProgress } from '../../platforms/publishing-types.ts';
import { POST_DEFINITIONS } from '../../platforms/registry.ts';
import type { PostPlatform } from '../../platforms/target-options.ts';
import { PLATFORMS } from '../accounts/schemas.ts';

export const POST_STATUSES = ['draft', 'scheduled', 'pending_approval', 'queued', 'publishing', 'published', 'partial', 'failed', 'rejected'] as const;
export const TARGET_STATUSES = ['pending', 'publishing', 'published', 'failed'] as const;
/** Platforms posts are published to: those whose definition has publishing (a whatsapp account cannot be a post's target). */
export const POST_PLATFORMS: readonly PostPlatform[] = POST_DEFINITIONS.map((d) => d.name);
/**
 * The words Target.platform accepts: every platform an account can be connected on (the
 * contract's x and linkedin among them). A word that names the account's platform but not a post
 * platform (whatsapp) gets the reason, not a list of words.
 */
export const TARGET_PLATFORMS: readonly string[] = PLATFORMS;
export const CONTENT_MAX = 40_000;

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);

export const PostTarget = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    platform: Type.String({ enum: [...POST_PLATFORMS] }),
    status: Type.String({ enum: [...TARGET_STATUSES] }),
    platformPostId: Nullable(Type.String({ description: 'Id on the platform.' })),
    url: Nullable(Type.String({ description: 'Link to the live post.' })),
    error: Nullable(Type.String({ description: 'Failure text, as the platform gave it.' })),
    attempts: Type.Integer({ description: 'Delivery attempts made.' }),
    warnings: Type.Array(Type.Object({ key: Type.String(), message: Type.String() }), { description: 'platformSpecificData keys that were skipped, and why; and, once published, what the platform did otherwise than asked (a thumbnail YouTube refused).' }),
  },
  { $id: 'PostTarget', title: 'PostTarget' },
);

export const Post = Type.Object(
  {
    id: Type.String(),
    content: Type.String(),
    status: Type.String({ enum: [...POST_STATUSES] }),
    scheduledFor: NullableTimestamp(),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    targets: Type.Array(Type.Ref('PostTarget')),
  },
  { $id: 'Post', title: 'Post' },
);
export type Post = Static<typeof Post>;
export type PostTarget = Static<typeof PostTarget>;

/**
 * Any key of no platform, or of another one: skipped with a warning. With it the union accepts
 * every object, so the body's JSON schema refuses nothing more than `additionalProperties: true`
 * did; the account's platform's rules are applied after the schema, with their own 400s.
 */
const OtherKeys = Type.Object({}, { title: 'OtherKeys', description: "Keys of another platform, or of none: skipped, and listed in the target's warnings.", additionalProperties: true });

/** platformSpecificData, described per platform (src/platforms/<platform>/options.ts, through its definition). */
export const PlatformSpecificData = Type.Union([...POST_DEFINITIONS.map((d) => d.publishing.data), OtherKeys], {
  description:
    `Options for the account's platform: ${POST_DEFINITIONS.map((d) => `${d.name} (${(d.publishing.data as { title?: string }).title ?? ''})`).join(', ')}. ` +
    "Keys of another platform, unknown keys and keys that do not apply to the content type are not refused: they are skipped and come back as the target's warnings. " +
    'A null value is the same as leaving the key out. Rules said to apply when the post goes live are checked when it is published now or scheduled, not on drafts.',
});

export const NewTarget = Type.Object({
  accountId: Type.String({ minLength: 1, maxLength: 100, description: 'Id of a connected account.' }),
  platform: Type.Optional(
    Type.String({
      description: `The account's platform, as a check: ${POST_PLATFORMS.join(', ')}. Accounts of ${PLATFORMS.filter((p) => !(POST_PLATFORMS as readonly string[]).includes(p)).join(', ')} cannot be post targets. Any other word is refused; so is one that does not match the account.`,
    }),
  ),
  platformSpecificData: Type.Optional(PlatformSpecificData),
});

export const NewPost = Type.Object({
  content: Type.String({ maxLength: CONTENT_MAX }),
  platforms: Type.Array(NewTarget, { minItems: 1, maxItems: 20, description: '1 to 20 targets, distinct accounts; delivered in this order.' }),
  scheduledFor: Type.Optional(Type.String({ format: 'date-time', description: 'Schedules the post (in the future).' })),
  publishNow: Type.Optional(Type.Boolean({ description: 'true publishes live now.' })),
});
export type NewPost = Static<typeof NewPost>;

const iso = (ms: number) => new Date(ms).toISOString();

export function presentTarget(row: PostTargetRow): PostTarget {
  return {
    id: row.id,
    accountId: row.account_id,
    platform: row.platform,
    status: row.status,
    platformPostId: row.platform_post_id,
    url: row.url,
    error: row.error,
    attempts: row.attempts,
    // What validation skipped, then what the platform did otherwise while publishing (the text
    // test spares list pages a parse of every target's progress).
    warnings: [...(JSON.parse(row.warnings) as PostTarget['warnings']), ...(row.progress.includes('"warnings"') ? publishWarnings(JSON.parse(row.progress) as PublishProgress) : [])],
  };
}

export function presentPost(row: PostRow, targets: PostTargetRow[]): Post {
  return {
    id: row.id,
    content: row.content,
    status: row.status,
    scheduledFor: row.scheduled_for === null ? null : iso(row.scheduled_for),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    targets: targets.map(presentTarget),
  };
}
