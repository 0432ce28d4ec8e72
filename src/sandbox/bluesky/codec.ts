// The identifiers of the AT Protocol the sandbox makes and checks (bluesky.md §4, atproto.com
// specs/tid, specs/record-key): TIDs (13 characters of base32-sortable, a microsecond timestamp and
// a clock id), CIDs (CIDv1, sha-256: `bafyrei…` for records as dag-cbor, `bafkrei…` for blobs as
// raw bytes; the record's is a hash of its canonical JSON, not of real DAG-CBOR, which no client
// recomputes), and did:plc identifiers (24 characters of base32).
import { createHash } from 'node:crypto';

const SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A valid TID: 13 base32-sortable characters, the first in 234567abcdefghij (the top bit is 0). */
export const isTid = (value: string): boolean => /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/.test(value);

/** A record key of type `any` (specs/record-key): 1–512 of A-Za-z0-9 . - _ : ~, not `.` or `..`. */
export const isRecordKey = (value: string): boolean => /^[A-Za-z0-9._:~-]{1,512}$/.test(value) && value !== '.' && value !== '..';

/** The TID of a moment (ms) and a clock id (0–1023). */
export function tidOf(micros: number, clockId: number): string {
  let n = (BigInt(micros) << 10n) | BigInt(clockId & 1023);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = SORTABLE.charAt(Number(n & 31n)) + out;
    n >>= 5n;
  }
  return out;
}

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32.charAt((value >>> (bits - 5)) & 31);
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32.charAt((value << (5 - bits)) & 31);
  return out;
}

const DAG_CBOR = 0x71;
const RAW = 0x55;

function cid(codec: number, digest: Buffer): string {
  return `b${base32(Buffer.concat([Buffer.from([0x01, codec, 0x12, 0x20]), digest]))}`;
}

/** JSON with object keys sorted, so equal records hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The CID of a record (or a commit): `bafyrei…`. */
export const recordCid = (value: unknown): string => cid(DAG_CBOR, createHash('sha256').update(canonicalJson(value)).digest());

/** The CID of a blob from the sha-256 (hex) of its bytes: `bafkrei…`. */
export const blobCid = (sha256Hex: string): string => cid(RAW, Buffer.from(sha256Hex, 'hex'));

/** A did:plc identifier, stable for a seed and a name. */
export const plcDid = (seed: string, name: string): string => `did:plc:${base32(createHash('sha256').update(`${seed}:plc:${name}`).digest()).slice(0, 24)}`;

export const isDid = (value: string): boolean => /^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$/.test(value) && value.length <= 2048;

/** `at://{did or handle}/{collection}/{rkey}` split, or null. */
export function parseAtUri(value: string): { repo: string; collection: string; rkey: string } | null {
  const match = /^at:\/\/([^/]+)\/([a-zA-Z0-9.-]+)\/([A-Za-z0-9._:~-]+)$/.exec(value);
  return match ? { repo: match[1] ?? '', collection: match[2] ?? '', rkey: match[3] ?? '' } : null;
}
