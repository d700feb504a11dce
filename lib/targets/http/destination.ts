/**
 * Where a webhook may go (SPEC §13.1): after DNS resolution, loopback, private, link-local,
 * multicast, cloud metadata and unspecified addresses (and every IPv6 form that embeds one of them)
 * are refused, unless the operator lists the host, the address or its range in
 * `SCHEDULER_HTTP_ALLOWED_HOSTS`. Checked at save (`400 invalid_invocation_target`) and at every
 * fire (`destination_refused`); the fire connects to exactly the address checked here.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { HttpAllowList } from '../../config';
import { DomainError } from '../../errors';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** No host or range allowed beyond the public internet (SCHEDULER_HTTP_ALLOWED_HOSTS unset). */
export const NO_ALLOWED_HOSTS: HttpAllowList = Object.freeze({ hosts: [], addresses: [], ranges: [] }) as HttpAllowList;

/**
 * Cloud metadata and instance-credential endpoints. Refused even inside an allowed range or behind
 * an allowed host name: only listing the exact address in `SCHEDULER_HTTP_ALLOWED_HOSTS` opens one.
 */
export const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack instance metadata
  '169.254.170.2', // AWS ECS task metadata and credentials
  '169.254.170.23', // AWS EKS pod identity
  '168.63.129.16', // Azure wire server
  '100.100.100.200', // Alibaba Cloud metadata
  '192.0.0.192', // Oracle Cloud metadata
  'fd00:ec2::254', // AWS instance metadata over IPv6
  'fd00:ec2::23', // AWS EKS pod identity over IPv6
] as const;
const METADATA = new Set(METADATA_ADDRESSES.map((a) => ipaddr.parse(a).toNormalizedString()));

/** Words for an ipaddr.js range name, as the refusal says them. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (shared)',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique local (private)',
  deprecatedSiteLocal: 'site-local (private)',
  ipv4Compatible: 'IPv4-compatible IPv6',
  rfc6145: 'IPv4-translated IPv6',
  rfc6052: 'NAT64 (IPv4-embedding) IPv6',
  '6to4': '6to4 (IPv4-embedding) IPv6',
  teredo: 'Teredo (IPv4-embedding) IPv6',
};

/** The address as checked: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is its IPv4 address. */
function normalize(address: string): Address {
  return ipaddr.process(address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address);
}

/**
 * What kind of address `address` is: `public` (global unicast) or the refused category, in words
 * (`loopback`, `private`, `link-local`, `cloud metadata`, …). Pure. Throws on a non-address.
 */
export function classifyAddress(address: string): { kind: 'public' } | { kind: 'refused'; category: string; metadata: boolean } {
  const a = normalize(address);
  if (METADATA.has(a.toNormalizedString())) return { kind: 'refused', category: 'cloud metadata', metadata: true };
  let range: string = a.range();
  // ::a.b.c.d (IPv4-compatible, deprecated) is not in ipaddr.js's table; it embeds an IPv4 address.
  if (range === 'unicast' && a.kind() === 'ipv6' && (a as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) range = 'ipv4Compatible';
  if (range === 'unicast') return { kind: 'public' };
  return { kind: 'refused', category: RANGE_WORDS[range] ?? range, metadata: false };
}

function inAllowedRange(a: Address, list: HttpAllowList): boolean {
  if (list.addresses.some((x) => normalize(x).toNormalizedString() === a.toNormalizedString())) return true;
  return list.ranges.some((cidr) => {
    const [net, bits] = ipaddr.parseCIDR(cidr);
    return net.kind() === a.kind() && a.match(net, bits);
  });
}

/**
 * Whether a webhook to `host` may connect to `address` (SPEC §13.1). Public addresses always may;
 * a refused one may when `host` is a listed host name, or the address is listed or inside a listed
 * range, except cloud metadata addresses, which only their exact listing opens. Pure.
 */
export function addressVerdict(host: string, address: string, list: HttpAllowList): { allowed: true } | { allowed: false; reason: string } {
  const c = classifyAddress(address);
  if (c.kind === 'public') return { allowed: true };
  const a = normalize(address);
  if (c.metadata) {
    if (list.addresses.some((x) => normalize(x).toNormalizedString() === a.toNormalizedString())) return { allowed: true };
  } else if (list.hosts.includes(bareHost(host)) || inAllowedRange(a, list)) {
    return { allowed: true };
  }
  const shown = a.toString();
  const via = bareHost(host) === shown || ipaddr.isValid(bareHost(host)) ? '' : ` (${bareHost(host)} resolves to it)`;
  // "a unique local": a vowel letter sounding like "you" takes "a".
  const article = /^[aeiou]/i.test(c.category) && !/^uni/i.test(c.category) ? 'an' : 'a';
  return { allowed: false, reason: `${shown} is ${article} ${c.category} address${via}; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it` };
}

/** A URL's host name as compared: lowercase, no IPv6 brackets, no trailing dot. */
function bareHost(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/** One resolved address of a host (dns.lookup's shape). */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (`dns.lookup(name, {all: true})` by default). */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

const systemResolver: HostResolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));

export type Destination =
  /** Every address of the host, each checked, in the resolver's order: the only ones connected to. */
  | { ok: true; addresses: ResolvedAddress[] }
  /** `destination_refused`: an address is not allowed. `connection_failed`: the name does not resolve. */
  | { ok: false; error: 'destination_refused' | 'connection_failed'; message: string };

/**
 * Resolve `url`'s host once and check every address it has (SPEC §13.1). An IP literal is checked
 * as written. Any refused address refuses the destination (a name with one private record is
 * refused, whatever its other records). On success answers the addresses to connect to: the
 * delivery connects to them and to nothing else (no second lookup, so no DNS-rebinding gap).
 */
export async function resolveDestination(url: URL, list: HttpAllowList, resolve: HostResolver = systemResolver): Promise<Destination> {
  const host = bareHost(url.hostname);
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (thrown) {
      const code = (thrown as { code?: string }).code ?? 'ENOTFOUND';
      return { ok: false, error: 'connection_failed', message: `${host} does not resolve (${code})` };
    }
    if (addresses.length === 0) return { ok: false, error: 'connection_failed', message: `${host} does not resolve` };
  }
  for (const a of addresses) {
    const verdict = addressVerdict(host, a.address, list);
    if (!verdict.allowed) return { ok: false, error: 'destination_refused', message: verdict.reason };
  }
  return { ok: true, addresses };
}

/**
 * The save-time check of a webhook URL (SPEC §13.1): resolve and check as a fire would. Throws
 * `400 invalid_invocation_target` (path `invocation_target.url`) when an address is refused or the
 * host does not resolve.
 */
export async function checkDestinationAtSave(url: string, list: HttpAllowList, resolve: HostResolver = systemResolver): Promise<void> {
  const d = await resolveDestination(new URL(url), list, resolve);
  if (!d.ok) throw new DomainError('invalid_invocation_target', `url: ${d.message}`, { path: 'invocation_target.url' });
}
