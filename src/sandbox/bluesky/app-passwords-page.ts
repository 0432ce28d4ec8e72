// bsky.app/settings/app-passwords in the sandbox: where a person makes an app password in the real
// app (the connect page links there). The sandbox's accounts have theirs made already; the page
// lists them, so a person trying the connect flow by hand knows what to type.
import { escapeHtml, page, sendViewPage } from '../core/html.ts';
import type { Host, RouteContext } from '../core/router.ts';

function show(ctx: RouteContext): unknown {
  const rows = [...ctx.state.people.blueskyAccounts.values()].flatMap((account) =>
    account.appPasswords.filter((p) => !p.revoked).map((p) => `<p><strong>@${escapeHtml(account.handle)}</strong>: <code>${escapeHtml(p.password)}</code></p>`),
  );
  const body = ['<h1>App passwords (sandbox)</h1>', '<p class="note">Bluesky makes app passwords in Settings → Privacy and security → App passwords. The sandbox\'s accounts have these:</p>', ...rows];
  return sendViewPage(ctx.reply, 200, page('App passwords (sandbox)', body.join('\n')));
}

export function registerAppPasswordsPage(host: Host): void {
  host.get('/settings/app-passwords', show);
}
