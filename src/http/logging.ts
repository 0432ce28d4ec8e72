// The logger: JSON lines (pino), a request id on every request line, and nothing secret:
// headers are not logged at all, and query values that can carry credentials are masked.
import { pooledRandomBytes } from '../lib/random.ts';
import { pino, type DestinationStream, type Logger } from 'pino';

const SECRET_PARAMS = /^(code|state|token|access_token|refresh_token|client_secret|key|api_key|secret|password|hub\.verify_token|fb_exchange_token|input_token)$/i;

export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of [...params.keys()]) if (SECRET_PARAMS.test(name)) params.set(name, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

// Standard output is written in chunks of about this size, not a write per line: a write to a pipe
// is a system call, and a request logs two lines. A quiet process still writes what it holds
// within FLUSH_MS, and an exiting one before it ends (short of being killed).
const BUFFERED_BYTES = 4096;
const FLUSH_MS = 100;

function bufferedStdout(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: false, minLength: BUFFERED_BYTES });
  setInterval(() => {
    try {
      out.flush();
    } catch {
      // ended at exit: nothing more to write
    }
  }, FLUSH_MS).unref();
  return out;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
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
    destination ?? bufferedStdout(),
  );
}

export const genReqId = (): string => `req_${pooledRandomBytes(9).toString('base64url')}`;
