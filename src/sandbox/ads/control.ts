// Control API for the Marketing API under `/_sandbox/ads/…`: seed ad accounts (any currency or
// account_status, e.g. 2 DISABLED) and look at the ad objects the sandbox holds. Throttling is
// driven by settings.ads (callsPerWindow) or by generic faults (code 17/80004, subcode 2446079).
import type { FastifyInstance } from 'fastify';
import type { SandboxState } from '../core/state.ts';
import { addAdAccount, type AdAccountInput } from './seed.ts';

class AdsControlError extends Error {
  readonly statusCode = 400;
}

export function registerAdsControl(app: FastifyInstance, state: SandboxState): void {
  app.get('/_sandbox/ads', () => ({
    accounts: [...state.ads.accounts.values()].map((a) => ({ ...a, calls: a.calls.length })),
    campaigns: [...state.ads.campaigns.values()],
    adsets: [...state.ads.adsets.values()],
    creatives: [...state.ads.creatives.values()],
    ads: [...state.ads.ads.values()],
    audiences: [...state.ads.audiences.values()].map((a) => ({ ...a, members: a.members.size })),
  }));
  app.post('/_sandbox/ads/accounts', (req) => {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as AdAccountInput;
    try {
      return addAdAccount(state, body);
    } catch (error) {
      throw new AdsControlError(error instanceof Error ? error.message : String(error));
    }
  });
}
