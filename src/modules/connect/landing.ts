// The landing page an OAuth connector may declare (its `landing`: WhatsApp's embedded signup):
// shown at GET /connect/{platform}/signup for an open state, it leads the person on to the
// platform's authorize page with one link. It does not use the state up: the callback does. The
// state is the credential, so the page sends no Referer (the platform would read the state in
// it), and its Content-Security-Policy allows its one inline style and nothing else: no script,
// no form, no frame (issue 29, point 8).
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { ConnectLanding, OAuthConnector } from '../../platforms/types.ts';
import { connectPageHtml, escapeHtml, inertPageHeaders } from './pages.ts';
import { callbackUrl } from './service.ts';
import { pkceChallenge } from './state.ts';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}' +
  'a.button{display:inline-block;padding:.7rem 1.2rem;background:#1877f2;color:#fff;border-radius:6px;text-decoration:none}';

const LANDING_HEADERS = inertPageHeaders(STYLE);

/**
 * The platform's authorize URL for a state, as GET /connect/{platform} would have answered it
 * without a landing: with a PKCE connector, the challenge of the verifier sealed with the state,
 * so the callback's exchange proves the same one.
 */
export function authorizeUrlFor(deps: Pick<AppDeps, 'config' | 'sealer'>, platform: string, connector: OAuthConnector, state: string, codeVerifierEnc: string | null): string {
  const redirectUri = callbackUrl(deps.config, platform);
  if (!connector.pkce || codeVerifierEnc === null) return connector.authorizeUrl({ state, redirectUri });
  return connector.authorizeUrl({ state, redirectUri, codeChallenge: pkceChallenge(deps.sealer.open(codeVerifierEnc)) });
}

function landingPage(landing: ConnectLanding, href: string): string {
  const intro = landing.intro.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  return connectPageHtml(landing.title, STYLE, `${intro}\n<p><a class="button" id="signup" href="${escapeHtml(href)}">${escapeHtml(landing.button)}</a></p>`);
}

export function showLanding(reply: FastifyReply, landing: ConnectLanding, href: string): FastifyReply {
  return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-store').headers(LANDING_HEADERS).send(landingPage(landing, href));
}
