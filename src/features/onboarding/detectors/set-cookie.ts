/** A cookie as the scan reports it: the browser's view of name, domain and path. */
export interface CookieNameDomainPath {
  name: string;
  /** `.example.com` for a cookie with a Domain attribute, the bare host for a host-only cookie. */
  domain: string;
  path: string;
}

/** RFC 6265 §5.1.4: the directory of the request path. */
function defaultPath(url: URL): string {
  const path = url.pathname;
  if (!path.startsWith('/') || path.lastIndexOf('/') === 0) return '/';
  return path.slice(0, path.lastIndexOf('/'));
}

/**
 * Reads one `Set-Cookie` header the way a browser would name the cookie it stores. Returns undefined for
 * a header without a name. Values and other attributes are ignored: the scan reports names only.
 */
export function parseSetCookie(header: string, url: URL): CookieNameDomainPath | undefined {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  const name = (eq === -1 ? '' : pair.slice(0, eq)).trim();
  if (name === '' || name.length > 200) return undefined;
  let domain = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let path = defaultPath(url);
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at === -1 ? '' : attribute.slice(at + 1).trim();
    if (key === 'domain' && value !== '') domain = `.${value.replace(/^\./, '').toLowerCase()}`;
    if (key === 'path' && value.startsWith('/')) path = value;
  }
  return { name, domain, path };
}
