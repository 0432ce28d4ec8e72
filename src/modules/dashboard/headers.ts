// The dashboard's security headers. Its pages load only its own stylesheet and script (images
// and videos of posts from anywhere), are never framed (frame-ancestors and X-Frame-Options for
// older browsers: a framed page could be clicked through unseen), and post their forms only to
// the dashboard itself (form-action; issue 29, point 8). Browsers apply form-action to where a
// form's answer redirects too, so a page whose form leads elsewhere names that origin: the
// consent page (the client's redirect URI) and an account's page (the platform's sign-in).
import type { FastifyReply } from 'fastify';

const extraTargets = new WeakMap<FastifyReply, readonly string[]>();

/** Lets this page's forms lead (through a redirect) to these origins besides the dashboard. */
export function allowFormTargets(reply: FastifyReply, origins: readonly string[]): void {
  extraTargets.set(reply, origins);
}

function policy(targets: readonly string[]): string {
  const formAction = ["'self'", ...new Set(targets)].join(' ');
  return `default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data: https: http:; media-src 'self' https: http:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

export function securityHeaders(reply: FastifyReply): Record<string, string> {
  return {
    'content-security-policy': policy(extraTargets.get(reply) ?? []),
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
}
