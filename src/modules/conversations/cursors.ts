// The lists' cursors: a position (a time and an id, the order's two keys) wrapped opaquely, so
// that their form can change. A cursor that is not one of ours is a 400 naming the parameter.
import { errors } from '../../http/errors.ts';

const PREFIX = 'p1.';

export const encodePosition = (at: number, id: string): string => PREFIX + Buffer.from(`${at}.${id}`, 'utf8').toString('base64url');

export function decodePosition(field: string, cursor: string | undefined): { at: number; id: string } | null {
  if (cursor === undefined) return null;
  const body = cursor.startsWith(PREFIX) ? cursor.slice(PREFIX.length) : '';
  const match = /^[A-Za-z0-9_-]+$/.test(body) ? /^(\d{1,16})\.([a-z]{2,5}_[0-9a-z]{26})$/.exec(Buffer.from(body, 'base64url').toString('utf8')) : null;
  if (!match?.[1] || !match[2]) throw errors.invalid(field, 'not a cursor of this API');
  return { at: Number(match[1]), id: match[2] };
}
