// The logger: JSON lines (pino), a request id on every request line, and nothing secret:
// headers are not logged at all, and query values that can carry credentials are masked.
import { pooledRandomBytes } from '../lib/random.ts';
import { pino, type Logger } from 'pino';

const SECRET_PARAMS = /^(code|state|token|access_token|refresh_token|client_secret|key|api_key|secret|password|hub\.verify_token|fb_exchange_token|input_token)$/i;

export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of [...params.keys()]) if (SECRET_PARAMS.test(name)) params.set(name, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers', '*.authorization', '*.accessToken', '*.access_token', '*.refreshToken', '*.refresh_token', '*.secret', '*.password', '*.key', '*.emails', '*.phones'],
        censor: '[redacted]',
      },
      serializers: {
        err: pino.stdSerializers.err,
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: maskUrl(req.url), remoteAddress: req.ip }),
      },
    },
    destination ?? process.stdout,
  );
}

export const genReqId = (): string => `req_${pooledRandomBytes(9).toString('base64url')}`;
