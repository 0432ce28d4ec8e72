// Audience members (contract "Audience hashing", platforms.md §9.5): emails trimmed and
// lower-cased, phones reduced to digits with the country code and no leading 00, then SHA-256
// hex. Only the hashes leave this module: raw values are never stored, logged, or shown back
// (a bad value is named by its position only).
import { createHash } from 'node:crypto';
import { errors } from '../../http/errors.ts';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export function normaliseEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
}

export function normalisePhone(raw: string): string | null {
  const digits = raw.replace(/\D/g, '').replace(/^00/, '');
  return digits.length >= 7 && digits.length <= 15 ? digits : null;
}

/** The SHA-256 hex of each normalised value, de-duplicated; 400 naming the first bad item. */
export function hashAll(values: string[], field: 'emails' | 'phones'): string[] {
  const normalise = field === 'emails' ? normaliseEmail : normalisePhone;
  const hashes = new Set<string>();
  values.forEach((raw, i) => {
    const value = normalise(raw);
    if (value === null) throw errors.invalid(`${field}[${i}]`, field === 'emails' ? 'not an email address' : 'not a phone number with its country code');
    hashes.add(sha256(value));
  });
  return [...hashes];
}
