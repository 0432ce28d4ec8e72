// Random bytes for identifiers made on every request (request ids, row ids), drawn from a pool
// refilled 4 KiB at a time: one call into the system's CSPRNG per few hundred ids instead of one
// per id (that call cost a few µs, as much as routing a request). Secrets (API keys, signing
// secrets, nonces) do not come from here.
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;

/** `size` fresh random bytes (at most POOL_SIZE), copied out of the pool. */
export function pooledRandomBytes(size: number): Buffer {
  if (offset + size > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  offset += size;
  return bytes;
}
