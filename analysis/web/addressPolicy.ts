import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver by default; tests stub it). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const V4_RANGES: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6_RANGES: Array<[string, number, string]> = [
  ['::', 96, 'unspecified/IPv4-compatible'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique-local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function blockList(ranges: Array<[string, number, string]>, type: 'ipv4' | 'ipv6'): Array<[BlockList, string]> {
  return ranges.map(([net, prefix, label]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return [list, label];
  });
}
const V4 = blockList(V4_RANGES, 'ipv4');
const V6 = blockList(V6_RANGES, 'ipv6');

/** The 16 bytes of an IPv6 address (handles `::` and a dotted IPv4 tail). */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.');
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return b.slice(12).join('.');
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6).join('.');
  return null;
}

/** Why an address must not be fetched (loopback, private, link-local, …), or null when it is public. */
export function forbiddenAddressReason(address: string): string | null {
  const family = isIP(address);
  if (family === 4)
    return (
      V4.find(([list]) => list.check(address, 'ipv4'))?.[1] ?? (address === '255.255.255.255' ? 'broadcast' : null)
    );
  if (family !== 6) return 'not an IP address';
  if (ipv6Bytes(address).every((x, i) => (i < 15 ? x === 0 : x === 1))) return 'loopback';
  const v4 = embeddedIpv4(address);
  if (v4) {
    const inner = forbiddenAddressReason(v4);
    return inner ? `${inner} (IPv4 ${v4} inside IPv6)` : null;
  }
  return V6.find(([list]) => list.check(address, 'ipv6'))?.[1] ?? null;
}
