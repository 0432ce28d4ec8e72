// The Marketing API calls (platforms.md §9) behind the ads capability (ads-types.ts), made with
// the connected person's Facebook user token: `/me/adaccounts`, the `act_{id}` edges
// (campaigns, adsets, adcreatives, ads, customaudiences), object reads, updates (`POST /{id}`)
// and deletes, `/{audience}/users` with hashed rows, `/{object}/insights` and `/search`.
// Every create sends `status=PAUSED` (objects that have a status), whatever the caller wants.
// JSON-valued parameters (targeting, creative specs, payload) travel as JSON text in the form,
// as Meta documents them. Answers are read with the Marketing error table (marketing-errors.ts).
import type { AdListRequest, AdObjectChange, AdsCapability, AdsCredentials, CreativeInput, InsightsRow, PlatformAd, PlatformAdAccount, PlatformAdSet, PlatformAudience, PlatformCampaign, PlatformCreative } from '../ads-types.ts';
import type { PlatformContext } from '../context.ts';
import { graphTimeMs, list, numberOf, obj, str, type Json } from '../json.ts';
import { FACEBOOK_GRAPH } from './graph.ts';
import { nextCursor } from './comment-paging.ts';
import { marketingBody } from './marketing-errors.ts';

type Params = Record<string, string | number | boolean | undefined>;

const ACCOUNT_FIELDS = 'id,account_id,name,currency,account_status,timezone_name,amount_spent';
const CAMPAIGN_FIELDS = 'id,account_id,name,objective,status,effective_status,daily_budget,lifetime_budget,created_time';
const ADSET_FIELDS = 'id,account_id,campaign_id,name,status,effective_status,daily_budget,lifetime_budget,optimization_goal,billing_event,targeting,start_time,end_time';
const CREATIVE_FIELDS = 'id,account_id,name,object_story_id,source_instagram_media_id,object_story_spec,call_to_action_type';
const AD_FIELDS = 'id,account_id,campaign_id,adset_id,creative,name,status,effective_status';
const AUDIENCE_FIELDS = 'id,account_id,name,description,subtype,approximate_count_lower_bound,approximate_count_upper_bound,delivery_status';
const INSIGHTS_FIELDS = 'account_currency,impressions,reach,frequency,spend,clicks,cpc,cpm,ctr,inline_link_clicks,actions';
const INSIGHTS_PAGE = 100;
/** At most this many pages of one list read whole (an insights report: 10,000 rows; longer ones should be cut by date). */
const MAX_PAGES = 100;

/** Minor units as Meta writes them (strings of digits); null when absent or zero-less empty. */
const minor = (value: unknown): number | null => {
  const text = str(value);
  return text !== null && /^\d+$/.test(text) ? Number(text) : null;
};
const actId = (value: unknown): string => {
  const id = str(value) ?? '';
  return id && !id.startsWith('act_') ? `act_${id}` : id;
};
const json = (value: unknown): string => JSON.stringify(value);
const seconds = (ms: number | null | undefined): number | undefined => (ms === null || ms === undefined ? undefined : Math.floor(ms / 1000));

function toAccount(row: Json): PlatformAdAccount {
  return {
    id: actId(row.id ?? row.account_id),
    name: str(row.name),
    currency: str(row.currency) ?? 'USD',
    accountStatus: numberOf(row.account_status),
    timezone: str(row.timezone_name),
    amountSpent: minor(row.amount_spent),
  };
}

function toCampaign(row: Json): PlatformCampaign {
  return {
    id: str(row.id) ?? '',
    adAccountId: actId(row.account_id),
    name: str(row.name),
    objective: str(row.objective),
    status: str(row.status),
    effectiveStatus: str(row.effective_status),
    dailyBudget: minor(row.daily_budget),
    lifetimeBudget: minor(row.lifetime_budget),
    createdAt: graphTimeMs(row.created_time),
  };
}

function toAdSet(row: Json): PlatformAdSet {
  const targeting = obj(row.targeting);
  return {
    id: str(row.id) ?? '',
    adAccountId: actId(row.account_id),
    campaignId: str(row.campaign_id),
    name: str(row.name),
    status: str(row.status),
    effectiveStatus: str(row.effective_status),
    dailyBudget: minor(row.daily_budget),
    lifetimeBudget: minor(row.lifetime_budget),
    optimizationGoal: str(row.optimization_goal),
    billingEvent: str(row.billing_event),
    targeting: Object.keys(targeting).length ? targeting : null,
    startTime: graphTimeMs(row.start_time),
    endTime: graphTimeMs(row.end_time),
  };
}

function toCreative(row: Json): PlatformCreative {
  const linkData = obj(obj(row.object_story_spec).link_data);
  return {
    id: str(row.id) ?? '',
    adAccountId: actId(row.account_id),
    name: str(row.name),
    objectStoryId: str(row.object_story_id),
    instagramMediaId: str(row.source_instagram_media_id),
    link: str(linkData.link),
    callToActionType: str(row.call_to_action_type),
  };
}

function toAd(row: Json): PlatformAd {
  return {
    id: str(row.id) ?? '',
    adAccountId: actId(row.account_id),
    campaignId: str(row.campaign_id),
    adSetId: str(row.adset_id),
    creativeId: str(obj(row.creative).id),
    name: str(row.name),
    status: str(row.status),
    effectiveStatus: str(row.effective_status),
  };
}

function toAudience(row: Json): PlatformAudience {
  return {
    id: str(row.id) ?? '',
    adAccountId: actId(row.account_id),
    name: str(row.name),
    description: str(row.description),
    subtype: str(row.subtype),
    approximateCountLower: numberOf(row.approximate_count_lower_bound),
    approximateCountUpper: numberOf(row.approximate_count_upper_bound),
    deliveryStatus: str(obj(row.delivery_status).description),
  };
}

function creativeParams(input: CreativeInput): Params {
  const cta = (c: { type: string; link: string | null } | null) => (c ? { type: c.type, ...(c.link ? { value: { link: c.link } } : {}) } : undefined);
  switch (input.kind) {
    case 'post':
      return { name: input.name, object_story_id: input.objectStoryId };
    case 'instagram': {
      const callToAction = cta(input.callToAction);
      return { name: input.name, source_instagram_media_id: input.instagramMediaId, instagram_user_id: input.instagramUserId, call_to_action: callToAction ? json(callToAction) : undefined };
    }
    case 'link': {
      const callToAction = cta(input.callToAction ? { ...input.callToAction, link: input.callToAction.link ?? input.link } : null);
      const linkData = { link: input.link, message: input.message, picture: input.imageUrl, ...(input.headline ? { name: input.headline } : {}), ...(callToAction ? { call_to_action: callToAction } : {}) };
      return { name: input.name, object_story_spec: json({ page_id: input.pageId, link_data: linkData }) };
    }
  }
}

function changeParams(change: AdObjectChange): Params {
  return {
    name: change.name,
    status: change.status,
    daily_budget: change.dailyBudget,
    lifetime_budget: change.lifetimeBudget,
    end_time: seconds(change.endTime),
  };
}

export function marketingApi(ctx: PlatformContext): AdsCapability {
  const base = `${FACEBOOK_GRAPH}/${ctx.graphVersion}`;
  const call = async (credentials: AdsCredentials, method: 'GET' | 'POST' | 'DELETE', path: string, params: Params = {}): Promise<Json> => {
    const data = method === 'POST' ? { form: params } : { query: params };
    return marketingBody(await ctx.http.send('facebook', { method, url: `${base}${path}`, bearer: credentials.accessToken, ...data }));
  };
  const page = async <T>(credentials: AdsCredentials, path: string, fields: string, request: AdListRequest, map: (row: Json) => T) => {
    const body = await call(credentials, 'GET', path, {
      fields,
      limit: request.limit,
      after: request.after ?? undefined,
      effective_status: request.statuses.length ? json(request.statuses) : undefined,
    });
    return { items: list(body.data).map((item) => map(obj(item))), after: nextCursor(body) };
  };
  const created = (body: Json) => ({ id: str(body.id) ?? '' });

  return {
    async adAccounts(credentials) {
      // Agencies see many ad accounts: every page is read.
      const accounts: PlatformAdAccount[] = [];
      let after: string | null = null;
      for (let page = 0; page < MAX_PAGES; page++) {
        const body = await call(credentials, 'GET', '/me/adaccounts', { fields: ACCOUNT_FIELDS, limit: 100, after: after ?? undefined });
        accounts.push(...list(body.data).map((item) => toAccount(obj(item))));
        after = nextCursor(body);
        if (after === null) break;
      }
      return accounts;
    },
    adAccount: async (credentials, id) => toAccount(await call(credentials, 'GET', `/${id}`, { fields: ACCOUNT_FIELDS })),

    campaigns: (credentials, adAccountId, request) => page(credentials, `/${adAccountId}/campaigns`, CAMPAIGN_FIELDS, request, toCampaign),
    campaign: async (credentials, id) => toCampaign(await call(credentials, 'GET', `/${id}`, { fields: CAMPAIGN_FIELDS })),
    async createCampaign(credentials, adAccountId, input) {
      return created(
        await call(credentials, 'POST', `/${adAccountId}/campaigns`, {
          name: input.name,
          objective: input.objective,
          status: 'PAUSED',
          special_ad_categories: json(input.specialAdCategories),
          daily_budget: input.dailyBudget ?? undefined,
          lifetime_budget: input.lifetimeBudget ?? undefined,
          bid_strategy: input.dailyBudget !== null || input.lifetimeBudget !== null ? 'LOWEST_COST_WITHOUT_CAP' : undefined,
        }),
      );
    },

    adSets: (credentials, parent, request) =>
      page(credentials, 'campaignId' in parent ? `/${parent.campaignId}/adsets` : `/${parent.adAccountId}/adsets`, ADSET_FIELDS, request, toAdSet),
    adSet: async (credentials, id) => toAdSet(await call(credentials, 'GET', `/${id}`, { fields: ADSET_FIELDS })),
    async createAdSet(credentials, adAccountId, input) {
      return created(
        await call(credentials, 'POST', `/${adAccountId}/adsets`, {
          name: input.name,
          campaign_id: input.campaignId,
          status: 'PAUSED',
          targeting: json(input.targeting),
          daily_budget: input.dailyBudget ?? undefined,
          lifetime_budget: input.lifetimeBudget ?? undefined,
          optimization_goal: input.optimizationGoal,
          billing_event: input.billingEvent,
          start_time: seconds(input.startTime),
          end_time: seconds(input.endTime),
          promoted_object: input.promotedObject ? json(input.promotedObject) : undefined,
        }),
      );
    },

    creatives: (credentials, adAccountId, request) => page(credentials, `/${adAccountId}/adcreatives`, CREATIVE_FIELDS, request, toCreative),
    creative: async (credentials, id) => toCreative(await call(credentials, 'GET', `/${id}`, { fields: CREATIVE_FIELDS })),
    createCreative: async (credentials, adAccountId, input) => created(await call(credentials, 'POST', `/${adAccountId}/adcreatives`, creativeParams(input))),

    ads: (credentials, parent, request) => page(credentials, 'adSetId' in parent ? `/${parent.adSetId}/ads` : `/${parent.adAccountId}/ads`, AD_FIELDS, request, toAd),
    ad: async (credentials, id) => toAd(await call(credentials, 'GET', `/${id}`, { fields: AD_FIELDS })),
    async createAd(credentials, adAccountId, input) {
      return created(
        await call(credentials, 'POST', `/${adAccountId}/ads`, { name: input.name, adset_id: input.adSetId, creative: json({ creative_id: input.creativeId }), status: 'PAUSED' }),
      );
    },

    async update(credentials, id, change) {
      await call(credentials, 'POST', `/${id}`, changeParams(change));
    },
    async remove(credentials, id) {
      await call(credentials, 'DELETE', `/${id}`);
    },

    audiences: (credentials, adAccountId, request) => page(credentials, `/${adAccountId}/customaudiences`, AUDIENCE_FIELDS, { ...request, statuses: [] }, toAudience),
    audience: async (credentials, id) => toAudience(await call(credentials, 'GET', `/${id}`, { fields: AUDIENCE_FIELDS })),
    async createAudience(credentials, adAccountId, input) {
      return created(
        await call(credentials, 'POST', `/${adAccountId}/customaudiences`, {
          name: input.name,
          description: input.description ?? undefined,
          subtype: 'CUSTOM',
          customer_file_source: 'USER_PROVIDED_ONLY',
        }),
      );
    },
    async addAudienceMembers(credentials, audienceId, schema, hashes) {
      const body = await call(credentials, 'POST', `/${audienceId}/users`, { payload: json({ schema, data: hashes }) });
      return { received: numberOf(body.num_received) ?? hashes.length, invalid: numberOf(body.num_invalid_entries) ?? 0 };
    },

    async insights(credentials, objectId, request) {
      const params: Params = {
        fields: request.level && request.level !== 'account' ? `${request.level}_id,${request.level}_name,${INSIGHTS_FIELDS}` : INSIGHTS_FIELDS,
        date_preset: request.since ? undefined : (request.datePreset ?? undefined),
        time_range: request.since && request.until ? json({ since: request.since, until: request.until }) : undefined,
        level: request.level ?? undefined,
        breakdowns: request.breakdowns.length ? request.breakdowns.join(',') : undefined,
        time_increment: request.timeIncrement ?? undefined,
        limit: INSIGHTS_PAGE,
      };
      // Rows come in pages; a report is read whole (days × breakdowns easily exceed one page).
      const rows: InsightsRow[] = [];
      let after: string | null = null;
      for (let page = 0; page < MAX_PAGES; page++) {
        const body = await call(credentials, 'GET', `/${objectId}/insights`, { ...params, after: after ?? undefined });
        rows.push(...list(body.data).map(obj));
        after = nextCursor(body);
        if (after === null) break;
      }
      return rows;
    },
    async searchTargeting(credentials, search) {
      // Suggestions start from a list of interest names rather than a query.
      const suggestion = search.type === 'adinterestsuggestion';
      const body = await call(credentials, 'GET', '/search', {
        type: search.type,
        q: suggestion ? undefined : search.q,
        interest_list: suggestion ? json(search.q.split(',').map((n) => n.trim()).filter(Boolean)) : undefined,
        limit: search.limit,
        location_types: search.locationTypes.length ? json(search.locationTypes) : undefined,
        class: search.targetingClass ?? undefined,
      });
      return list(body.data).map(obj);
    },
  };
}
