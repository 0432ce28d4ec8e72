// Headers for what the service serves (issue 29, point 8). Every answer says nosniff, so no
// browser reads an answer as another type than the one it is declared with (a hosted GIF as a
// page, a JSON error as a script). Every HTML page has a Content-Security-Policy: the pages that
// know what they load set their own (the dashboard, the OAuth and connect pages), and any other
// (the sandbox's consent pages, a framework error) gets this one: nothing loads but its own
// inline styles and images, no script runs, no page frames it.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export const HTML_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; base-uri 'none'; frame-ancestors 'none'";

/** `style-src` for exactly these inline <style> blocks, by their SHA-256 (CSP level 2 hashes). */
export function styleHashes(...styles: string[]): string {
  return styles.map((style) => `'sha256-${createHash('sha256').update(style).digest('base64')}'`).join(' ');
}

/** Sets the headers on an answer about to be sent; app.ts calls it from its one onSend hook. */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  const type = reply.getHeader('content-type');
  if (typeof type === 'string' && type.startsWith('text/html') && !reply.hasHeader('content-security-policy')) reply.header('content-security-policy', HTML_POLICY);
}
