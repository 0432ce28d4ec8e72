// The service's WhatsApp embedded signup page: what GET /connect/whatsapp hands out. It checks
// the state (without using it up: the callback does) and leads the person to Meta's Facebook
// Login for Business dialog with the WhatsApp configuration (`config_id`), whose code comes back
// to the usual callback. Public, like the callback: the state is the credential, so the page
// sends no Referer (the dialog would read the state in it), and its Content-Security-Policy
// allows its one inline style and nothing else: no script, no form, no frame (issue 29, point 8).
import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import type { Config } from '../../../config.ts';
import { API_PREFIX } from '../../../http/openapi.ts';
import type { Api } from '../../../http/types.ts';
import { escapeHtml, inertPageHeaders, RESULT_PAGE_HEADERS, resultPage } from '../pages.ts';
import { adapterFor, callbackUrl } from '../service.ts';

export function whatsappSignupUrl(config: Config, state: string): string {
  return `${config.publicBaseUrl}${API_PREFIX}/connect/whatsapp/signup?state=${encodeURIComponent(state)}`;
}

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}a.button{display:inline-block;padding:.7rem 1.2rem;background:#1877f2;color:#fff;border-radius:6px;text-decoration:none}';

const SIGNUP_HEADERS = inertPageHeaders(STYLE);

export function whatsappSignup(api: Api): void {
  api.get(
    '/connect/whatsapp/signup',
    {
      config: { public: true },
      schema: { hide: true, querystring: Type.Object({ state: Type.Optional(Type.String({ maxLength: 200 })) }) },
    },
    async (request, reply) => {
      const { deps } = request.server;
      const state = request.query.state ?? '';
      const row = await deps.store.db
        .selectFrom('connect_states')
        .select(['expires_at', 'used_at'])
        .where('state_hash', '=', createHash('sha256').update(state).digest('hex'))
        .where('platform', '=', 'whatsapp')
        .executeTakeFirst();
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (!row || row.used_at !== null || row.expires_at <= deps.clock.now()) {
        return reply.code(400).headers(RESULT_PAGE_HEADERS).send(resultPage('This link has expired', 'This WhatsApp signup link was already used or is more than 10 minutes old. Start again from the app.'));
      }
      const connector = adapterFor(deps, 'whatsapp').connectors[0];
      const dialog = connector?.authorizeUrl({ state, redirectUri: callbackUrl(deps.config, 'whatsapp') }) ?? '';
      return reply.headers(SIGNUP_HEADERS).send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect WhatsApp</title>
<style>${STYLE}</style>
</head><body>
<h1>Connect your WhatsApp Business number</h1>
<p>Log in with Facebook, choose or create your WhatsApp Business Account and phone number, and come back here.</p>
<p><a class="button" id="signup" href="${escapeHtml(dialog)}">Continue with Facebook</a></p>
</body></html>`);
    },
  );
}
