import dns from 'node:dns';
import net from 'node:net';

/**
 * SSRF protection of the scanner. The scanner fetches addresses its callers choose, so by default it
 * refuses every target that is, or resolves to, an address inside the networks below. The check happens
 * where the connection is made (`lookup`), on the very addresses used to connect, so a redirect, a page's
 * own request and a DNS answer that changes between check and use (rebinding) are all covered.
 */
const FORBIDDEN_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the 169.254.169.254 cloud metadata service
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const FORBIDDEN_V6: readonly [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique-local (also AWS's metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
];

/** Names that reach metadata services or the host itself without an address of their own to check. */
const FORBIDDEN_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|metadata\.goog|instance-data(\.ec2\.internal)?)$/;

const blockList = new net.BlockList();
for (const [net4, prefix] of FORBIDDEN_V4) blockList.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of FORBIDDEN_V6) blockList.addSubnet(net6, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (`::` compression and a trailing dotted quad allowed). */
function ipv6Bytes(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const b = quad[1]!.split('.').map(Number);
    text = `${text.slice(0, quad.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const h = groups(head);
  const t = groups(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const all = [...h, ...Array<string>(Math.max(fill, 0)).fill('0'), ...t];
  if (all.length !== 8) return undefined;
  return all.flatMap((g) => {
    const v = Number.parseInt(g, 16);
    return [(v >> 8) & 0xff, v & 0xff];
  });
}

/** An IPv4 address carried inside an IPv6 one: mapped/compatible (::ffff:a.b.c.d), NAT64, 6to4. */
function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  if (!b) return undefined;
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const quad = (at: number) => b.slice(at, at + 4).join('.');
  if (zeros(0, 10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0))) return quad(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return quad(12); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return quad(2); // 2002::/16
  return undefined;
}

/** True for loopback, private, link-local, unique-local, metadata and other non-public addresses. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blockList.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined && blockList.check(v4, 'ipv4')) return true;
  return blockList.check(address.replace(/%.*$/, ''), 'ipv6');
}

export class ForbiddenTargetError extends Error {
  readonly code = 'SCAN_TARGET_FORBIDDEN';
  constructor(
    readonly host: string,
    readonly address?: string,
  ) {
    super(`${host}${address && address !== host ? ` resolves to ${address}, which` : ''} is on a loopback, private, link-local or metadata network`);
    this.name = 'ForbiddenTargetError';
  }
}

export type Resolver = (host: string) => Promise<readonly { address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

export interface TargetGuardOptions {
  readonly allowPrivateNetworks: boolean;
  readonly resolver?: Resolver;
  /** Test seam, never configurable: host names let through unchecked (to test redirects away from them). */
  readonly trustedHosts?: readonly string[];
}

const CACHE_TTL_MS = 30_000;
const CACHE_SIZE = 1000;

export const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();

export class TargetGuard {
  private readonly resolver: Resolver;
  private readonly trusted: ReadonlySet<string>;
  /** Short-lived answers, so a check and the connection right after it see the same addresses. */
  private readonly cache = new Map<string, { addresses: { address: string; family: number }[]; until: number }>();

  constructor(private readonly options: TargetGuardOptions) {
    this.resolver = options.resolver ?? systemResolver;
    this.trusted = new Set((options.trustedHosts ?? []).map(bareHost));
  }

  /**
   * The addresses to connect to for `hostname`, all checked. Throws ForbiddenTargetError when the name
   * or any address it resolves to is forbidden (a name with one public and one private address is as
   * dangerous as a private one), and the resolver's error (ENOTFOUND, …) when it does not resolve.
   */
  async resolve(hostname: string): Promise<{ address: string; family: number }[]> {
    const host = bareHost(hostname);
    const checked = !this.options.allowPrivateNetworks && !this.trusted.has(host);
    if (checked && FORBIDDEN_NAMES.test(host)) throw new ForbiddenTargetError(host);
    const literal = net.isIP(host);
    const addresses = literal ? [{ address: host, family: literal }] : await this.cachedResolve(host);
    if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
    if (checked) {
      const bad = addresses.find((a) => isForbiddenAddress(a.address));
      if (bad) throw new ForbiddenTargetError(host, bad.address);
    }
    return addresses;
  }

  private async cachedResolve(host: string): Promise<{ address: string; family: number }[]> {
    const hit = this.cache.get(host);
    if (hit && hit.until > Date.now()) return hit.addresses;
    const addresses = [...(await this.resolver(host))];
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(host, { addresses, until: Date.now() + CACHE_TTL_MS });
    return addresses;
  }

  /** A `lookup` for http.request and net.connect: connections only ever go to checked addresses. */
  readonly lookup: net.LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (addresses) => {
        const family = typeof options === 'object' ? options.family : undefined;
        const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        } else if (typeof options === 'object' && options.all) {
          (callback as unknown as (err: null, all: { address: string; family: number }[]) => void)(null, usable);
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
