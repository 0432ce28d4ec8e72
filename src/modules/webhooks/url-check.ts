// Endpoint addresses: https, and a public address once resolved (checked again at every
// delivery, when the connection is made). ALLOW_PRIVATE_URLS (on in sandbox mode) also allows
// http and loopback or private addresses, for local receivers.
import { errors } from '../../http/errors.ts';
import { assertPublicUrl, UrlRefusedError } from '../../lib/safe-fetch.ts';

export async function checkEndpointUrl(field: string, raw: string, allowPrivate: boolean): Promise<string> {
  try {
    return (await assertPublicUrl(raw, { allowPrivate, requireHttps: !allowPrivate })).toString();
  } catch (error) {
    if (error instanceof UrlRefusedError) throw errors.invalid(field, error.message);
    throw error;
  }
}
