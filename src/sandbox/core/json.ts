// JSON with unquoted 64-bit integers. Instagram and Threads send `user_id` as a bare number
// that can exceed 2^53, and TikTok sends `publicaly_available_post_id` as int64s (platforms.md
// §12, §5.5). The sandbox sends them the same way, so adapters that parse them with a plain
// JSON.parse fail here as they would against the real platform.
const MARK = '\u0000bigint:';

export function jsonWithBigInts(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v.toString()}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

export function hasBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(hasBigInt);
  if (value && typeof value === 'object') return Object.values(value).some(hasBigInt);
  return false;
}
