// Custom audiences (platforms.md §9.5): customer-list audiences (`subtype=CUSTOM` with
// `customer_file_source`), `POST|DELETE /{audience-id}/users` with `payload={"schema","data"}`,
// approximate counts, delete. Hashed schemas take lowercase SHA-256 hex only: values that are
// not are counted in `num_invalid_entries` with samples, and a payload with no valid entry at
// all is refused (code 100; Meta's exact error for that case is unconfirmed).
import type { RouteContext } from '../core/router.ts';
import { graphError } from '../meta/graph-error.ts';
import { str, type GraphInput } from '../meta/params.ts';
import type { AdAccount, CustomAudience } from './store.ts';
import { adsInvalid, requireParam } from './rules.ts';

const SOURCES = ['USER_PROVIDED_ONLY', 'PARTNER_PROVIDED_ONLY', 'BOTH_USER_AND_PARTNER_PROVIDED'];
const HASHED = new Set(['EMAIL', 'EMAIL_SHA256', 'PHONE', 'PHONE_SHA256', 'FN', 'LN', 'CT', 'ST', 'ZIP', 'COUNTRY', 'DOBY', 'DOBM', 'DOBD', 'GEN', 'FI']);
const PLAIN = new Set(['MADID', 'MOBILE_ADVERTISER_ID', 'EXTERN_ID', 'UID']);
const MAX_ROWS = 10_000;

export function createAudience(ctx: RouteContext, input: GraphInput, account: AdAccount): unknown {
  const name = requireParam(input, 'name');
  const subtype = str(input, 'subtype') ?? 'CUSTOM';
  if (subtype !== 'CUSTOM') throw adsInvalid('Unsupported audience type', `The sandbox simulates customer-list audiences (subtype CUSTOM), not ${subtype}.`);
  const source = str(input, 'customer_file_source');
  if (!source || !SOURCES.includes(source)) throw adsInvalid('Customer file source required', `customer_file_source must be one of ${SOURCES.join(', ')}.`);
  const audience: CustomAudience = {
    id: ctx.state.ids.numeric('ad-audience', '238', 17),
    accountId: account.id,
    name,
    description: str(input, 'description') ?? '',
    subtype,
    customerFileSource: source,
    members: new Set(),
    createdAt: ctx.state.clock.now(),
    deleted: false,
  };
  ctx.state.ads.audiences.set(audience.id, audience);
  return { id: audience.id };
}

/** Count ranges as Meta shows them: -1 below 1000 people, otherwise a rounded band. */
export function audienceFields(a: CustomAudience) {
  const n = a.members.size;
  const lower = n < 1000 ? -1 : Math.floor(n / 100) * 100;
  return {
    id: () => a.id,
    account_id: () => a.accountId.replace(/^act_/, ''),
    name: () => a.name,
    description: () => a.description,
    subtype: () => a.subtype,
    customer_file_source: () => a.customerFileSource ?? undefined,
    approximate_count_lower_bound: () => lower,
    approximate_count_upper_bound: () => (lower === -1 ? -1 : Math.ceil((n * 1.2) / 100) * 100),
    operation_status: () => ({ code: 200, description: 'Normal' }),
    delivery_status: () => ({ code: n < 1000 ? 300 : 200, description: n < 1000 ? 'This audience is too small to be used.' : 'This audience is ready for use.' }),
    time_created: () => Math.floor(a.createdAt / 1000),
  };
}

export function changeUsers(ctx: RouteContext, input: GraphInput, audience: CustomAudience, remove: boolean): unknown {
  const raw = input.payload;
  let payload: unknown = raw;
  if (typeof raw === 'string') {
    try {
      payload = JSON.parse(raw) as unknown;
    } catch {
      throw graphError({ code: 100, message: '(#100) Param payload must be a JSON object' });
    }
  }
  const body = (payload && typeof payload === 'object' ? payload : {}) as { schema?: unknown; data?: unknown };
  const schema = Array.isArray(body.schema) ? body.schema.map(String) : typeof body.schema === 'string' ? [body.schema] : [];
  if (!schema.length) throw graphError({ code: 100, message: '(#100) The parameter payload.schema is required' });
  for (const key of schema) if (!HASHED.has(key) && !PLAIN.has(key)) throw graphError({ code: 100, message: `(#100) Param payload.schema contains an invalid key: ${key}` });
  if (!Array.isArray(body.data) || !body.data.length) throw graphError({ code: 100, message: '(#100) The parameter payload.data is required' });
  if (body.data.length > MAX_ROWS) throw graphError({ code: 100, message: `(#100) Param payload.data may have at most ${MAX_ROWS} rows` });
  const invalid: Record<string, string> = {};
  let valid = 0;
  for (const entry of body.data) {
    const values = Array.isArray(entry) ? entry.map(String) : [String(entry)];
    const problem = values.length !== schema.length ? 'wrong number of values for the schema' : values.map((v, i) => check(schema[i] ?? '', v)).find((p) => p !== null);
    if (problem) {
      if (Object.keys(invalid).length < 10) invalid[values.join(',')] = problem;
      continue;
    }
    valid++;
    const key = values.join('|');
    if (remove) audience.members.delete(key);
    else audience.members.add(key);
  }
  const received = body.data.length;
  if (!valid) {
    throw adsInvalid('Data not hashed', `None of the ${received} entries is usable: values of ${schema.join(', ')} must be normalized and SHA-256 hashed (64 lowercase hex characters).`);
  }
  return {
    audience_id: audience.id,
    session_id: String(ctx.state.ids.numeric('ad-audience-session', '9', 18)),
    num_received: received,
    num_invalid_entries: received - valid,
    invalid_entry_samples: invalid,
  };
}

function check(key: string, value: string): string | null {
  if (PLAIN.has(key)) return value ? null : 'empty value';
  if (!/^[a-f0-9]{64}$/.test(value)) return `${key} is not a SHA-256 hash: normalize, then hash`;
  return null;
}
