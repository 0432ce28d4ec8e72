// Record keys the service chooses (atproto.com specs/tid): a TID is 64 bits — a zero top bit,
// microseconds since the epoch (53 bits) and a clock id (10 bits) — written as 13 characters of
// base32-sortable. Choosing the key before createRecord is what makes a post findable after a
// lost answer: getRecord on that key says whether it was made.
import { randomInt } from 'node:crypto';

const SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';
/** One clock id per process, as the spec suggests, so two processes' keys of one microsecond differ. */
const CLOCK_ID = randomInt(1024);

export function tid(micros: number, clockId = CLOCK_ID): string {
  let n = (BigInt(Math.floor(micros)) << 10n) | BigInt(clockId & 1023);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = SORTABLE.charAt(Number(n & 31n)) + out;
    n >>= 5n;
  }
  return out;
}

/** The last microsecond this process used in a key. */
let last = 0;

/**
 * `count` increasing TIDs from the time `ms`, a microsecond apart. Never one this process gave
 * before: targets published in the same millisecond (a burst of due posts) would otherwise share
 * keys, and the second createRecord would find the first one's record at its key.
 */
export function tids(ms: number, count: number): string[] {
  const start = Math.max(ms * 1000, last + 1);
  last = start + count - 1;
  return Array.from({ length: count }, (_, i) => tid(start + i));
}
