export interface ParsedDomainName {
  /** Lower-case host, with `:port` when a non-default port was given. */
  readonly name: string;
  readonly path: string;
  readonly scheme: 'http' | 'https';
}

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
