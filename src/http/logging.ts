// The logger: JSON lines (pino), a request id on every request line, and nothing secret
// (issue 29, point 7). Secrets reach a line in three ways, and each is closed here:
// - the request line: headers are not logged at all; the URL keeps its path and the names of its
//   query parameters, but the values of those that can carry credentials are masked, and so is
//   the token of a path that is one (the dashboard's sign-in link);
// - objects given to the logger: pino's redaction of the fields named like credentials;
// - text: an error's message or stack, a URL inside one, a platform's answer. Every line is
//   scrubbed as it is written: our own secrets by their shape (sk_, dl_, ds_, whsec_, mcp_ at/rt/ac
//   prefixes), credentials in `name=value` query pairs, Bearer and Basic credentials, and JSON
//   fields named like credentials at any depth. Platform tokens have no shape of ours, so they are
//   caught by the name they travel under (access_token=, "accessToken": …).
import { pooledRandomBytes } from '../lib/random.ts';
import { pino, type DestinationStream, type Logger } from 'pino';
import { readableDestination } from './readable-log.ts';

const REDACTED = '[redacted]';

/** Query parameters whose value is masked: credentials by any common name, OAuth codes and states, PINs. */
const SECRET_PARAM = /^(?:code|state|pin|key|sig|.*(?:token|secret|password|passwd|verifier|api_?key|proof|session|credential|signature|cookie|auth).*)$/i;

/** Paths whose segment is itself a secret. */
const SECRET_PATHS = [/^(\/dashboard\/login\/)[^/?#]+/];

export function maskUrl(url: string): string {
  let masked = url;
  for (const pattern of SECRET_PATHS) masked = masked.replace(pattern, `$1${REDACTED}`);
  const q = masked.indexOf('?');
  if (q < 0) return masked;
  const params = new URLSearchParams(masked.slice(q + 1));
  for (const name of [...params.keys()]) if (SECRET_PARAM.test(name)) params.set(name, REDACTED);
  return `${masked.slice(0, q)}?${params.toString()}`;
}

// Our secrets by shape: a prefix and 32 random bytes (43 characters of base62 or base64url).
const OUR_SECRETS = /(sk|mcp_at|mcp_rt|mcp_ac)_[0-9A-Za-z]{43}(?![0-9A-Za-z])|(dl|ds|whsec)_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
// `name=value` after ? or & anywhere in the text (URLs inside messages).
const QUERY_PAIR = /([?&])([^=&\s"\\]{1,64})=([^&\s"\\#]*)/g;
const SCHEME_CREDENTIALS = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
// JSON fields named like credentials, at any depth of the line.
const SECRET_FIELD =
  /"((?:access|refresh|id|input|fb_exchange|verify)_?token|(?:access|refresh|id)Token|token|client_?secret|clientSecret|app_?secret|secret|password|pin|code_?verifier|codeVerifier|authorization|cookie|set-cookie|api_?key|apiKey|appsecret_proof)":"(?:[^"\\]|\\.)*"/gi;

/** A serialized line with every secret it may carry masked. */
export function scrubLine(line: string): string {
  return line
    .replace(OUR_SECRETS, (_match, base62Prefix: string | undefined, base64Prefix: string | undefined) => `${base62Prefix ?? base64Prefix ?? ''}_${REDACTED}`)
    .replace(QUERY_PAIR, (match, sep: string, name: string) => (SECRET_PARAM.test(name) ? `${sep}${name}=${REDACTED}` : match))
    .replace(SCHEME_CREDENTIALS, `$1 ${REDACTED}`)
    .replace(SECRET_FIELD, `"$1":"${REDACTED}"`);
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

/** Standard output as the process's lines go there: readable on a terminal, JSON otherwise. */
function stdoutDestination(): DestinationStream {
  return process.stdout.isTTY ? readableDestination(process.stdout) : bufferedStdout();
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      hooks: { streamWrite: scrubLine },
      redact: {
        paths: ['req.headers', 'headers', '*.headers', '*.authorization', '*.accessToken', '*.access_token', '*.refreshToken', '*.refresh_token', '*.secret', '*.password', '*.pin', '*.key', '*.emails', '*.phones'],
        censor: REDACTED,
      },
      serializers: {
        err: pino.stdSerializers.err,
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: maskUrl(req.url), remoteAddress: req.ip }),
      },
    },
    destination ?? stdoutDestination(),
  );
}

export const genReqId = (): string => `req_${pooledRandomBytes(9).toString('base64url')}`;
