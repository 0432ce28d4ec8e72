// `/{page-id}/subscribed_apps` and `/{ig-user-id}/subscribed_apps` (platforms.md §2.9, §8.5):
// the account installs the calling app for webhooks. POST needs `subscribed_fields` (Graph
// refuses a POST without it since v3.2) and answers `{"success":true}`; GET lists the apps with
// their fields; DELETE removes the calling app.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { invalidParameter } from './graph-error.ts';
import { list, type GraphInput } from './params.ts';

export const PAGE_FIELDS = [
  'feed', 'mention', 'messages', 'message_echoes', 'message_deliveries', 'message_reads', 'message_reactions', 'message_edits',
  'messaging_postbacks', 'messaging_optins', 'messaging_referrals', 'messaging_handovers', 'standby', 'ratings', 'leadgen', 'videos', 'live_videos',
];
export const INSTAGRAM_FIELDS = [
  'messages', 'messaging_postbacks', 'messaging_seen', 'messaging_handover', 'messaging_referral', 'message_reactions', 'message_edit',
  'standby', 'comments', 'live_comments', 'mentions', 'story_insights',
];

export function subscribedAppsEdge(ctx: RouteContext, input: GraphInput, accountId: string, token: TokenRecord, allowed: string[]): unknown {
  const apps = ctx.state.meta.subscribedApps.get(accountId) ?? new Map<string, string[]>();
  ctx.state.meta.subscribedApps.set(accountId, apps);
  const appId = token.clientId;
  switch (ctx.method) {
    case 'POST': {
      const fields = list(input, 'subscribed_fields');
      if (!fields?.length) throw invalidParameter('(#100) The parameter subscribed_fields is required.');
      const unknown = fields.find((f) => !allowed.includes(f));
      if (unknown) throw invalidParameter(`(#100) Param subscribed_fields must be one of {${allowed.join(', ')}} - got "${unknown}"`);
      apps.set(appId, [...new Set(fields)]);
      return { success: true };
    }
    case 'DELETE':
      apps.delete(appId);
      return { success: true };
    default: {
      const data = [...apps.entries()].map(([id, fields]) => {
        const app = [...ctx.state.apps.values()].find((a) => a.clientId === id);
        return { category: 'Business', link: `https://sandbox.invalid/apps/${id}`, name: app?.name ?? 'Sandbox app', id, subscribed_fields: fields };
      });
      return { data };
    }
  }
}
