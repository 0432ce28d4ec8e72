// POST /whatsapp/connect: connects a number with an existing token. The token is checked against
// the business account and the number before anything is stored; then, as asked, the number is
// registered (two-step PIN) and the business account subscribed to the app's webhooks; only when
// all of that worked is the account stored, with account.connected.
import { Type } from 'typebox';
import { callerOf } from '../../../http/auth.ts';
import { errors } from '../../../http/errors.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { PlatformError, toApiError } from '../../../platforms/errors.ts';
import { presentAccount } from '../../accounts/schemas.ts';
import { adapterFor, storeAccounts } from '../../connect/service.ts';
import { metaCallbackUrl } from '../../platform-webhooks/callback.ts';
import { rememberPin } from '../phone-number.ts';

const Digits = Type.String({ pattern: '^[0-9]{1,30}$' });

export function connectWhatsApp(api: Api): void {
  api.post(
    '/whatsapp/connect',
    {
      schema: {
        operationId: 'connectWhatsApp',
        tags: ['WhatsApp'],
        summary: 'Connect a WhatsApp number with an existing access token',
        body: Type.Object({
          accessToken: Type.String({ minLength: 1, maxLength: 2000 }),
          phoneNumberId: Digits,
          wabaId: Digits,
          pin: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', description: 'Two-step verification PIN, needed to register.' })),
          register: Type.Optional(Type.Boolean({ description: 'Register the number for the Cloud API (needs pin).' })),
          subscribe: Type.Optional(Type.Boolean({ description: "Subscribe the business account to the app's webhooks." })),
          externalId: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 201: Type.Object({ account: Type.Ref('Account') }), ...errorResponses(400, 403, 409, 502) },
      },
    },
    async (request, reply) => {
      const { deps } = request.server;
      const body = request.body;
      if (body.register && !body.pin) throw errors.invalid('pin', 'required to register the number');
      try {
        const { numbers, webhooks } = adapterFor(deps, 'whatsapp');
        if (!numbers) throw new PlatformError('not_supported', 'connecting a number with an existing token is not offered', { platform: 'whatsapp' });
        const account = await numbers.checkToken({ accessToken: body.accessToken, wabaId: body.wabaId, phoneNumberId: body.phoneNumberId });
        if (body.register && body.pin) await numbers.register({ accessToken: body.accessToken, phoneNumberId: body.phoneNumberId, pin: body.pin });
        if (body.subscribe) {
          await webhooks?.subscribe(
            { platformUserId: body.phoneNumberId, accessToken: body.accessToken, refreshToken: null, expiresAt: account.token.expiresAt, scopes: account.token.scopes, metadata: { wabaId: body.wabaId } },
            { url: metaCallbackUrl(deps.config), verifyToken: deps.platforms.metaWebhookVerifyToken },
          );
        }
        const [row] = await storeAccounts(
          deps,
          { organizationId: callerOf(request).organizationId, platform: 'whatsapp', flavour: 'token', externalId: body.externalId ?? null, redirectUrl: null },
          [account],
        );
        if (!row) throw new Error('no account stored');
        // A later POST .../register may omit the PIN the number was registered with here.
        if (body.register && body.pin) await rememberPin(deps, row, body.pin);
        return reply.code(201).send({ account: presentAccount(row) });
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        // The token is the caller's input here, not a stored account's: an invalid one is a 400.
        if (error.kind === 'auth') throw errors.invalid('accessToken', `not accepted by WhatsApp (${error.message})`);
        throw toApiError(error);
      }
    },
  );
}
