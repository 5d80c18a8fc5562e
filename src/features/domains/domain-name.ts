import { parse as parseHost } from 'tldts';

export interface ParsedDomainName {
  /** Lower-case host, with `:port` when a non-default port was given. */
  readonly name: string;
  readonly path: string;
  readonly scheme: 'http' | 'https';
}

/** The `domains.path` column's width (varchar(500)); a longer path is refused, never truncated. */
export const MAX_DOMAIN_PATH_LENGTH = 500;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Accepts what people paste: `www.site.tld`, `https://www.site.tld/shop/`, `site.tld:8443`. Query and
 * fragment are dropped; credentials, other schemes and invalid hosts are refused (undefined).
 * Internationalised names are stored in their ASCII (punycode) form, as browsers send them.
 */
export function parseDomainName(input: string): ParsedDomainName | undefined {
  const trimmed = input.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  if (hasScheme && !/^https?:\/\//i.test(trimmed)) return undefined;
  if (/\s/.test(trimmed)) return undefined;
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `https://${trimmed}`);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  const host = url.hostname;
  if (host.length > 253 || host.startsWith('[')) return undefined;
  const valid = IPV4.test(host) || host.split('.').every((label) => LABEL.test(label));
  if (!valid || /^\d+$/.test(host.split('.').at(-1) ?? '') && !IPV4.test(host)) return undefined;
  return {
    name: url.port === '' ? host : `${host}:${url.port}`,
    path: url.pathname === '' ? '/' : url.pathname,
    scheme: url.protocol === 'http:' ? 'http' : 'https',
  };
}

/**
 * Whether a page at `url` may use the domain's configuration: its host[:port] is the domain's name
 * (a default port written out or not), or its host name is one of `consentSharingDomains` or below one.
 * The sharing list widens where one configuration (one set of embedding ids, one consent log) is served,
 * which is what makes a consent shared between those hosts mean the same thing on each of them.
 */
export function pageMatchesDomain(url: URL, domainName: string, sharingDomains: readonly string[]): boolean {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  const name = domainName.toLowerCase();
  if (url.host === name || `${url.hostname}:${url.port || defaultPort}` === name) return true;
  return sharingDomains.some((entry) => {
    const d = sharingHost(entry);
    return d !== '' && (url.hostname === d || url.hostname.endsWith(`.${d}`));
  });
}

/** A consentSharingDomains entry as a host name to compare: lower case, without a leading dot. */
export const sharingHost = (entry: string): string => entry.toLowerCase().replace(/^\./, '');

/**
 * Whether a consentSharingDomains entry may be shared: an IPv4 address, or a host at or below a
 * registrable domain. A public suffix (`com`, `co.uk`, and the Public Suffix List's private section such as
 * `github.io`, whose subdomains belong to different owners) and a single label (`localhost`) are refused:
 * sharing one would serve this configuration, and accept its consent, on every site below it. The list
 * comes with `tldts` (updated with the package).
 */
export function isShareableHost(entry: string): boolean {
  const host = sharingHost(entry);
  if (IPV4.test(host)) return true;
  const parsed = parseHost(host, { allowPrivateDomains: true });
  return !parsed.isIp && parsed.domain !== null;
}
