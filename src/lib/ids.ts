// Ids: a type prefix and a time-ordered body (48-bit milliseconds + 80 random bits, Crockford
// base32, 26 characters), so sorting by id is sorting by creation and newest-first listing is an
// index scan. Within one millisecond the body increases, so a process's ids never go backwards.
import { pooledRandomBytes } from './random.ts';

export const ID_PREFIXES = {
  organization: 'org',
  apiKey: 'key',
  account: 'acc',
  post: 'post',
  target: 'tgt',
  media: 'med',
  webhook: 'whk',
  delivery: 'dlv',
  event: 'evt',
  pending: 'pend',
  conversation: 'conv',
  message: 'msg',
  job: 'job',
  mcpClient: 'mcpc',
  mcpGrant: 'mcpg',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = -1;
let lastRandom: Uint8Array = new Uint8Array(10);

function increment(bytes: Uint8Array): Uint8Array {
  const next = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    const value = (next[i] ?? 0) + 1;
    next[i] = value & 0xff;
    if (value <= 0xff) break;
  }
  return next;
}

function encode(time: number, random: Uint8Array): string {
  let out = '';
  let t = time;
  for (let i = 0; i < 10; i++) {
    out = (ALPHABET[t % 32] ?? '0') + out;
    t = Math.floor(t / 32);
  }
  // 80 random bits as 16 base32 characters, 5 bits at a time.
  let bits = 0;
  let value = 0;
  for (const byte of random) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31] ?? '0';
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

export function newId(kind: IdKind, now = Date.now()): string {
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = pooledRandomBytes(10);
  }
  return `${ID_PREFIXES[kind]}_${encode(lastTime, lastRandom).toLowerCase()}`;
}

/** The smallest id of `kind` made at `time`: ids below it were made earlier (a primary-key range). */
export function idAt(kind: IdKind, time: number): string {
  return `${ID_PREFIXES[kind]}_${encode(time, new Uint8Array(10)).toLowerCase()}`;
}
