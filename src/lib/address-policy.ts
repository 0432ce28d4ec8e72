// Which IP addresses an outgoing request (media fetch, webhook delivery) may connect to. The rule
// is an allowlist: public unicast only (IPv4 unicast, IPv6 global unicast 2000::/3). Everything
// else is refused: loopback, RFC 1918 private, unique-local, link-local, carrier-grade NAT,
// multicast, broadcast, unspecified, reserved/documentation ranges, and IPv6 forms that embed or
// translate to IPv4 (mapped, NAT64, 6to4, Teredo). IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as
// the IPv4 address it names. Cloud metadata addresses are refused even when private addresses are
// allowed (ALLOW_PRIVATE_URLS is for local development, never for reaching instance credentials).
import ipaddr from 'ipaddr.js';

/** Ranges that ALLOW_PRIVATE_URLS opens: where a developer's own test servers live. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/** Instance-metadata endpoints of the clouds (AWS, ECS, GCP, Azure, Oracle, Alibaba). */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '192.0.0.192', '100.100.100.200', 'fd00:ec2:0:0:0:0:0:254']);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  carrierGradeNat: 'carrier-grade NAT',
  linkLocal: 'link-local',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
  ipv4Mapped: 'IPv4-mapped',
};

/**
 * Why `address` may not be connected to ("a loopback address"), or null when it may. `address`
 * is an IP literal as a resolver returns it (no brackets); anything that does not parse is refused.
 */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  // process() turns ::ffff:a.b.c.d into the IPv4 address it stands for.
  const ip = ipaddr.process(address);
  if (METADATA_ADDRESSES.has(ip.toNormalizedString())) return 'a cloud metadata address';
  const range = ip.range();
  if (allowPrivate && PRIVATE_RANGES.has(range)) return null;
  if (range === 'unicast') return ip.kind() === 'ipv4' || ip.match(GLOBAL_UNICAST_V6) ? null : 'not a global unicast address';
  return `a ${RANGE_WORDS[range] ?? `non-public (${range})`} address`;
}

/** The sentence for a refused address, e.g. "127.0.0.1 is a loopback address". */
export function describeRefusal(address: string, reason: string): string {
  return `${address} is ${reason}`;
}

/** The host of a URL as an IP literal (brackets removed), or null when it is a name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : null;
}
