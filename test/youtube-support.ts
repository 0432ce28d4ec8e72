// YouTube accounts for the posts suites: a new Google user with one channel per account (verified
// unless asked otherwise), a live token of the scopes the service asks, stored as the connect
// flow stores it (platformUserId is the channel id).
import { newId } from '../src/lib/ids.ts';
import type { PostsApp } from './posts-support.ts';

export const YOUTUBE_SCOPES = ['youtube.upload', 'youtube.force-ssl', 'yt-analytics.readonly'].map((s) => `https://www.googleapis.com/auth/${s}`);

export interface YouTubeAccount {
  id: string;
  token: string;
  channelId: string;
}

export async function addYouTubeAccount(t: PostsApp, organizationId: string, options: { verified?: boolean } = {}): Promise<YouTubeAccount> {
  const { sealer, store, clock } = t.runtime.deps;
  const n = t.sandbox.people.googleUsers.size + 1;
  const { channels, identities } = t.sandbox.addGoogleUser({ name: `Creator ${n}`, channels: [{ title: `Channel ${n}`, verified: options.verified ?? true }] });
  const channel = channels[0];
  if (!channel) throw new Error('no channel');
  const token = `ya29.test-${newId('account').slice(4)}`;
  t.sandbox.issueToken({ value: token, platform: 'youtube', type: 'user', clientId: 'sandbox-google-client', subjectId: identities[0] ?? '', userId: identities[0] ?? '', scopes: YOUTUBE_SCOPES, declined: [], pageIds: [], ttlSeconds: 86_400, longLived: false });
  const id = newId('account');
  const now = clock.now();
  await store.db
    .insertInto('accounts')
    .values({
      id, organization_id: organizationId, platform: 'youtube', platform_user_id: channel.id, username: channel.customUrl, display_name: channel.title, avatar_url: null, external_id: id, status: 'active',
      approval_required: 0, access_token_enc: sealer.seal(token), refresh_token_enc: null, token_expires_at: null, scopes: YOUTUBE_SCOPES.join(' '), metadata: JSON.stringify({ channelId: channel.id }), connected_at: now, updated_at: now,
    })
    .execute();
  return { id, token, channelId: channel.id };
}
