// The platforms' OAuth callback. Public: it is authenticated by the single-use state, not by an
// API key. The browser is sent on to the client's redirectUrl with accountId, pendingId or
// error, or shown a small page when the client gave none.
import { Type } from 'typebox';
import type { Api } from '../../../http/types.ts';
import { PLATFORMS } from '../../accounts/schemas.ts';
import { finish, page } from '../finish.ts';
import { completeConnect, connectFailed } from '../service.ts';
import { consumeState } from '../state.ts';

export function connectCallback(api: Api): void {
  api.get(
    '/connect/:platform/callback',
    {
      config: { public: true },
      schema: {
        hide: true,
        params: Type.Object({ platform: Type.String({ enum: [...PLATFORMS] }) }),
        querystring: Type.Object({
          code: Type.Optional(Type.String()),
          state: Type.Optional(Type.String()),
          error: Type.Optional(Type.String()),
          error_description: Type.Optional(Type.String()),
        }),
      },
    },
    async (request, reply) => {
      const { deps } = request.server;
      const { platform } = request.params;
      const { code, state, error } = request.query;
      const claimed = state ? await consumeState(deps.store.db, platform, state, deps.clock.now()) : null;
      if (!claimed) {
        return page(reply, 400, 'This link has expired', 'This connection link was already used or is more than 10 minutes old, so nothing was connected. Start again from the app.');
      }
      const target = {
        organizationId: claimed.organization_id,
        platform,
        flavour: claimed.flavour,
        externalId: claimed.external_id,
        redirectUrl: claimed.redirect_url,
      };
      if (error || !code) {
        // OAuth's access_denied is the person's cancel; another error of the platform's is passed on as it is.
        const cancels = deps.platforms.of(platform)?.connectors.find((c) => c.flavour === claimed.flavour)?.cancelErrors ?? [];
        if (error === 'access_denied' || (error !== undefined && cancels.includes(error))) return finish(reply, claimed.redirect_url, connectFailed('access_denied', `The ${platform} consent was cancelled; nothing was connected.`));
        const message = `${platform} did not return an authorization code.`;
        return finish(reply, claimed.redirect_url, error !== undefined ? { kind: 'failed', error, message } : connectFailed('invalid_request', message));
      }
      const verifier = claimed.code_verifier_enc === null ? null : deps.sealer.open(claimed.code_verifier_enc);
      return finish(reply, claimed.redirect_url, await completeConnect(deps, target, code, verifier));
    },
  );
}
