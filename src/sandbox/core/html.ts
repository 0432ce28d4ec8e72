// Minimal HTML for the pages a browser sees: the consent and error pages of OAuth, and the
// sandbox's own page of each post (post-page.ts).
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1c1e21}
fieldset{border:1px solid #ddd;border-radius:8px;margin:1rem 0}label{display:block;margin:.3rem 0}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888}
.allow{background:#1877f2;color:#fff;border-color:#1877f2}.note{color:#65676b;font-size:.9rem}
.text{white-space:pre-wrap}img,video{max-width:100%;border-radius:8px;margin:.5rem 0}`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head><body>
${body}
</body></html>`;
}

/**
 * A page that only shows things: no script, no form, no frame; its one style block by hash;
 * images and videos from wherever the post's media is hosted.
 */
const VIEW_ONLY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  'img-src http: https:',
  'media-src http: https:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sends a page of page() that has no form (a post's page) with its security headers. */
export function sendViewPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .header('content-security-policy', VIEW_ONLY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}
