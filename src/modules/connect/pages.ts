// The small HTML pages the browser lands on after the platform's consent when the client gave
// no redirectUrl (and for a state that cannot be trusted, where there is nowhere else to go).
import { styleHashes } from '../../http/security-headers.ts';

/** Text as HTML: the five characters that could end an attribute or open a tag, as entities. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}';

/**
 * The headers of a connect page that loads nothing and runs nothing: its one inline style, by
 * hash, and no Referer. A page with a form (`form: true`) sets no form-action: its submit ends in
 * a redirect to the client's redirectUrl, which browsers would block under form-action 'self'.
 */
export function inertPageHeaders(style: string, options: { form?: true } = {}): Record<string, string> {
  return {
    'content-security-policy': `default-src 'none'; style-src ${styleHashes(style)}; base-uri 'none';${options.form ? '' : " form-action 'none';"} frame-ancestors 'none'`,
    'referrer-policy': 'no-referrer',
  };
}

/** The result page's. */
export const RESULT_PAGE_HEADERS = inertPageHeaders(STYLE);

/** A connect page: its title (also its heading), its one style, and `body` (HTML, escaped by the caller). */
export function connectPageHtml(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

export function resultPage(title: string, message: string): string {
  return connectPageHtml(title, STYLE, `<p>${escapeHtml(message)}</p>`);
}
