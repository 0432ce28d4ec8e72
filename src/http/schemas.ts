// Schema pieces shared by routes: the error responses and common parameters.
import { Type, type TSchema } from 'typebox';


const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input; the message names the field.',
  401: 'Missing, unknown or revoked API key.',
  403: 'Not allowed for this account or key.',
  404: 'Unknown id, or it belongs to another organization.',
  409: 'State conflict.',
  410: 'Gone.',
  413: 'Too large.',
  429: 'Rate limited.',
  502: 'The platform failed.',
};

/** Error responses of a route: 401 and 429 always (every API route is authenticated and limited). */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of [...new Set([...statuses, 401, 429])].sort()) {
    out[status] = Type.Ref('Error', { description: ERROR_DESCRIPTIONS[status] ?? 'Error.' });
  }
  return out;
}

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const Timestamp = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
export const NullableTimestamp = (description?: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], description ? { description } : {});

