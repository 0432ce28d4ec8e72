// The ads module (contract "Ads", DESIGN "Ads"): the Marketing API through a connected facebook
// account, with the organization's record of ad objects (records.ts) for isolation. It has no
// jobs: every operation is one request's calls, made live.
import type { RouteRegistrar } from '../../http/routes.ts';
import { addAudienceUsers } from './routes/add-audience-users.ts';
import { boostPost } from './routes/boost-post.ts';
import { createAd } from './routes/create-ad.ts';
import { createAdSet } from './routes/create-ad-set.ts';
import { createAudience } from './routes/create-audience.ts';
import { createCampaign } from './routes/create-campaign.ts';
import { createCreative } from './routes/create-creative.ts';
import { deleteAudience } from './routes/delete-audience.ts';
import { getAd } from './routes/get-ad.ts';
import { getAdSet } from './routes/get-ad-set.ts';
import { getAudience } from './routes/get-audience.ts';
import { getCampaign } from './routes/get-campaign.ts';
import { listAdAccounts } from './routes/list-ad-accounts.ts';
import { listAdSets } from './routes/list-ad-sets.ts';
import { listAds } from './routes/list-ads.ts';
import { listAudiences } from './routes/list-audiences.ts';
import { listCampaigns } from './routes/list-campaigns.ts';
import { listCreatives } from './routes/list-creatives.ts';
import { readInsights } from './routes/read-insights.ts';
import { searchTargeting } from './routes/search-targeting.ts';
import { updateAd } from './routes/update-ad.ts';
import { updateAdSet } from './routes/update-ad-set.ts';
import { updateCampaign } from './routes/update-campaign.ts';
import { adSchemas as schemas } from './schemas.ts';

export const adRoutes: RouteRegistrar[] = [
  listAdAccounts,
  boostPost,
  listCampaigns,
  createCampaign,
  getCampaign,
  updateCampaign,
  listAdSets,
  createAdSet,
  getAdSet,
  updateAdSet,
  listCreatives,
  createCreative,
  listAds,
  createAd,
  getAd,
  updateAd,
  listAudiences,
  createAudience,
  getAudience,
  deleteAudience,
  addAudienceUsers,
  readInsights,
  searchTargeting,
];

export const adSchemas = schemas;
