// Who may read /metrics: anyone who reaches it, or, with METRICS_TOKEN, only a scraper sending
// it as a Bearer token (Prometheus: `authorization: {credentials: …}`). Compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function scrapeAllowed(token: string | null, authorization: string | undefined): boolean {
  if (token === null) return true;
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}

export const METRICS_PATH = '/metrics';
