// Log lines for a person at a terminal: `serve` on a terminal writes one line per request
// ("12:03:04 GET /api/v1/posts 201 12 ms req_…") and the other lines as time, level, message and
// their fields, instead of JSON. Anywhere else (a pipe, a file, a log shipper) the lines stay JSON.
// The lines come here already serialized and scrubbed of secrets (logging.ts), so this only
// re-reads them. Fastify logs a request twice (on arrival, with the method and URL, and on
// completion, with the status and time); the arrival is held by request id and printed with the
// completion, as one line.
import type { DestinationStream } from 'pino';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Arrivals waiting for their completion; bounded, so requests that never complete cannot pile up. */
const MAX_PENDING = 10_000;
/** Fields every line has, or that the line's own text already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);

type Entry = Record<string, unknown>;

const clock = (time: unknown) => (typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '--:--:--');

function fields(entry: Entry): string {
  const rest = Object.entries(entry).filter(([name]) => !SHOWN.has(name));
  return rest.map(([name, value]) => ` ${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join('');
}

function errorText(err: unknown): string {
  if (!err || typeof err !== 'object') return '';
  const { stack, message } = err as { stack?: unknown; message?: unknown };
  const text = typeof stack === 'string' ? stack : typeof message === 'string' ? message : '';
  return text ? `\n    ${text.split('\n').join('\n    ')}` : '';
}

/** Reads the JSON lines of one process and turns each into its readable line (or holds it). */
export class ReadableLog {
  private readonly arrivals = new Map<string, { method: string; url: string }>();

  /** The readable text of one JSON line, or null for a request's arrival (printed with its completion). */
  line(json: string): string | null {
    let entry: Entry;
    try {
      entry = JSON.parse(json) as Entry;
    } catch {
      return json.trimEnd();
    }
    const reqId = typeof entry.reqId === 'string' ? entry.reqId : null;
    const req = entry.req as { method?: unknown; url?: unknown } | undefined;
    if (reqId && entry.msg === 'incoming request' && req) {
      if (this.arrivals.size >= MAX_PENDING) this.arrivals.delete(this.arrivals.keys().next().value ?? '');
      this.arrivals.set(reqId, { method: String(req.method), url: String(req.url) });
      return null;
    }
    const time = clock(entry.time);
    const res = entry.res as { statusCode?: unknown } | undefined;
    if (reqId && entry.msg === 'request completed' && res) {
      const arrival = this.arrivals.get(reqId);
      this.arrivals.delete(reqId);
      const took = typeof entry.responseTime === 'number' ? ` ${Math.round(entry.responseTime)} ms` : '';
      return `${time} ${arrival ? `${arrival.method} ${arrival.url}` : 'request'} ${String(res.statusCode)}${took} ${reqId}${fields(entry)}`;
    }
    const level = LEVELS[Number(entry.level)] ?? String(entry.level);
    const msg = typeof entry.msg === 'string' ? entry.msg : '';
    return `${time} ${level.padEnd(5)} ${msg}${fields(entry)}${reqId ? ` ${reqId}` : ''}${errorText(entry.err)}`;
  }
}

/** A pino destination writing readable lines to `out` (a terminal). */
export function readableDestination(out: NodeJS.WritableStream): DestinationStream {
  const log = new ReadableLog();
  return {
    write(chunk: string) {
      for (const json of chunk.split('\n')) {
        if (!json) continue;
        const text = log.line(json);
        if (text !== null) out.write(`${text}\n`);
      }
    },
  };
}
