// Deterministic ids and secrets: given the same seed and the same sequence of calls, the sandbox
// hands out the same ids and tokens (issue 3, point 9), so test failures replay exactly.
import { createHash } from 'node:crypto';
import { RESTORE, SNAPSHOT, SnapshotError, type Snapshotable } from './snapshot.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Room for the counter in numeric ids: 100 million of each kind. */
const COUNTER_DIGITS = 8;

export class IdGenerator implements Snapshotable {
  #seed: string;
  #counters = new Map<string, number>();

  constructor(seed: string) {
    this.#seed = seed;
  }

  /** The next value of a named counter (1, 2, 3 …). */
  next(kind: string): number {
    const n = (this.#counters.get(kind) ?? 0) + 1;
    this.#counters.set(kind, n);
    return n;
  }

  /**
   * A numeric id shaped like the platform's: a fixed prefix, digits fixed for the kind, then the
   * counter in a fixed width (zero-padded), so ids of one kind never collide. A counter too large
   * for the width makes the id longer rather than reusing one.
   */
  numeric(kind: string, prefix: string, length: number): string {
    const width = Math.min(COUNTER_DIGITS, length - prefix.length);
    const middle = this.#digits(kind, length - prefix.length - width);
    return prefix + middle + String(this.next(kind)).padStart(width, '0');
  }

  /** An opaque random-looking string (tokens, codes, trace ids), stable for a seed. */
  opaque(kind: string, length: number, alphabet: 'base62' | 'base36' | 'hex' = 'base62'): string {
    const n = this.next(kind);
    const chars = alphabet === 'base62' ? BASE62 : alphabet === 'base36' ? BASE36 : '0123456789abcdef';
    let out = '';
    let round = 0;
    while (out.length < length) {
      const digest = createHash('sha256').update(`${this.#seed}:${kind}:${n}:${round++}`).digest();
      for (const byte of digest) {
        if (out.length >= length) break;
        out += chars[byte % chars.length];
      }
    }
    return out;
  }

  /** reddit-style base36 id (`abc123`) from a counter. */
  base36(kind: string, offset = 0): string {
    return (this.next(kind) + offset).toString(36);
  }

  /** The counters, kept across restarts so no id is handed out twice (persistence.ts). */
  [SNAPSHOT](): Record<string, number> {
    return Object.fromEntries(this.#counters);
  }

  /** Takes saved counters back; a counter never goes down (the fresh seed used some already). */
  [RESTORE](data: unknown): void {
    if (!data || typeof data !== 'object') throw new SnapshotError('ids: the file has no counters');
    for (const [kind, value] of Object.entries(data)) {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new SnapshotError(`ids: a counter that is not a number (${kind})`);
      this.#counters.set(kind, Math.max(value, this.#counters.get(kind) ?? 0));
    }
  }

  #digits(kind: string, count: number): string {
    if (count <= 0) return '';
    const digest = createHash('sha256').update(`${this.#seed}:digits:${kind}`).digest();
    let out = '';
    for (let i = 0; out.length < count; i++) out += String((digest[i % digest.length] ?? 0) % 10);
    return out;
  }
}
