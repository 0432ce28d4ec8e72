// Migrations in code, in order. Add a file and a line here; never edit one that has shipped.
import type { Migration } from 'kysely';
import * as foundation from './0001-foundation.ts';
import * as media from './0002-media.ts';
import * as webhooks from './0003-webhooks.ts';
import * as connect from './0004-connect.ts';
import * as posts from './0005-posts.ts';
import * as jobLanes from './0006-job-lanes.ts';
import * as accountListIndex from './0007-account-list-index.ts';
import * as retentionIndexes from './0008-retention-indexes.ts';
import * as targetPlatformIds from './0009-target-platform-ids.ts';
import * as inboxEvents from './0010-inbox-events.ts';
import * as analyticsSnapshots from './0012-analytics-snapshots.ts';
import * as directMessages from './0011-direct-messages.ts';
import * as whatsappNumbers from './0013-whatsapp-numbers.ts';
import * as redditCommentPolls from './0014-reddit-comment-polls.ts';
import * as ads from './0018-ads.ts';
import * as dashboard from './0019-dashboard.ts';
import * as messageErrors from './0020-message-errors.ts';
import * as mcpOauth from './0021-mcp-oauth.ts';
import * as messageStatusIndex from './0022-message-status-index.ts';
import * as requestKeys from './0023-request-keys.ts';
import * as webhookSecretRotation from './0024-webhook-secret-rotation.ts';
import * as mcpClientSource from './0025-mcp-client-source.ts';
import * as connectPkce from './0026-connect-pkce.ts';
import * as commentPollsByPlatform from './0027-comment-polls-by-platform.ts';
import * as connectPageTries from './0028-connect-page-tries.ts';
import * as sharedCounters from './0030-shared-counters.ts';
import * as mentionPolls from './0031-mention-polls.ts';
import * as mentionPollMark from './0032-mention-poll-mark.ts';

export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-media': media,
  '0003-webhooks': webhooks,
  '0004-connect': connect,
  '0005-posts': posts,
  '0006-job-lanes': jobLanes,
  '0007-account-list-index': accountListIndex,
  '0008-retention-indexes': retentionIndexes,
  '0009-target-platform-ids': targetPlatformIds,
  '0010-inbox-events': inboxEvents,
  '0012-analytics-snapshots': analyticsSnapshots,
  '0011-direct-messages': directMessages,
  '0013-whatsapp-numbers': whatsappNumbers,
  '0014-reddit-comment-polls': redditCommentPolls,
  '0018-ads': ads,
  '0019-dashboard': dashboard,
  '0020-message-errors': messageErrors,
  '0021-mcp-oauth': mcpOauth,
  '0022-message-status-index': messageStatusIndex,
  '0023-request-keys': requestKeys,
  '0024-webhook-secret-rotation': webhookSecretRotation,
  '0025-mcp-client-source': mcpClientSource,
  '0026-connect-pkce': connectPkce,
  '0027-comment-polls-by-platform': commentPollsByPlatform,
  '0028-connect-page-tries': connectPageTries,
  '0030-shared-counters': sharedCounters,
  '0031-mention-polls': mentionPolls,
  '0032-mention-poll-mark': mentionPollMark,
};
