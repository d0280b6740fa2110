import { BlockList, isIP } from 'node:net';

// Addresses an outbound request (invoke, webhooks) must never reach: loopback, private,
// link-local (cloud metadata), CGNAT, multicast, reserved and documentation ranges, and IPv6
// forms that embed such an IPv4 address.
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (the client's IPv4 address is embedded, obfuscated)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates to any IPv4, private included
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (any notation, including a dotted IPv4 tail). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return null;
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address embeds, for the forms that carry one: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, RFC 6052) and 6to4
 * (2002::/16). Teredo (2001::/32, whose client address is obfuscated) and local-use NAT64
 * (64:ff9b:1::/48, any embedding) are blocked whole.
 */
function embeddedIpv4(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroTo(5) && g5 === 0xffff) return v4(g6, g7);
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1, g2);
  return null;
}

/** True when `address` (an IP literal) is not a public unicast address. Non-IPs count as blocked. */
export function isBlockedAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const groups = ipv6Groups(ip);
    if (!groups) return true;
    const embedded = embeddedIpv4(groups);
    if (embedded !== null) return blocked.check(embedded, 'ipv4');
    return blocked.check(ip, 'ipv6');
  }
  return true;
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** Hostnames that are local by name, before any DNS lookup. */
export function isLocalHostname(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  return name === '' || LOCAL_NAMES.test(name) || (!name.includes('.') && isIP(name) === 0);
}
