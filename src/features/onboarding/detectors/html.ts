/** Small, dependency-free HTML readers for the HTTP-only crawl (the browser crawl asks the DOM instead). */

export interface Anchor {
  /** Absolute URL. */
  href: string;
  /** Visible text, or aria-label/title/alt when the link has none. */
  text: string;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', shy: '', copy: '©', reg: '®', ndash: '–',
  mdash: '—', middot: '·', hellip: '…', laquo: '«', raquo: '»', bull: '•', sect: '§', euro: '€',
  auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß', eacute: 'é', egrave: 'è',
  ecirc: 'ê', euml: 'ë', Eacute: 'É', agrave: 'à', aacute: 'á', acirc: 'â', ccedil: 'ç', Ccedil: 'Ç',
  iacute: 'í', igrave: 'ì', icirc: 'î', iuml: 'ï', oacute: 'ó', ograve: 'ò', ocirc: 'ô', uacute: 'ú',
  ugrave: 'ù', ucirc: 'û', ntilde: 'ñ', Ntilde: 'Ñ', oelig: 'œ', aring: 'å', oslash: 'ø', ordm: 'º', ordf: 'ª',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

/** Attributes of one start tag, names lower-cased, values decoded. */
export function attributesOf(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g)) {
    const name = m[1]!.toLowerCase();
    if (!(name in out)) out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

const withoutComments = (html: string) => html.replace(/<!--[\s\S]*?-->/g, '');

/** The document's `<base href>` if any, else the page URL. */
export function baseUrl(html: string, pageUrl: URL): URL {
  const tag = /<base\b([^>]*)>/i.exec(withoutComments(html));
  const href = tag ? attributesOf(tag[1]!).href : undefined;
  try {
    return href ? new URL(href, pageUrl) : pageUrl;
  } catch {
    return pageUrl;
  }
}

function absolute(href: string | undefined, base: URL): string | undefined {
  if (!href || href.trim() === '') return undefined;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return undefined;
  }
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const stripTags = (html: string, by = ' ') => html.replace(/<[^>]*>/g, by);

export function extractAnchors(html: string, pageUrl: URL): Anchor[] {
  const clean = withoutComments(html);
  const base = baseUrl(clean, pageUrl);
  const anchors: Anchor[] = [];
  for (const m of clean.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi)) {
    const attrs = attributesOf(m[1]!);
    const href = absolute(attrs.href, base);
    if (!href) continue;
    const alt = /<img\b[^>]*\balt\s*=\s*["']([^"']*)["']/i.exec(m[2]!)?.[1];
    const text = squash(decodeEntities(stripTags(m[2]!))) || attrs['aria-label'] || attrs.title || alt || '';
    anchors.push({ href, text: squash(text).slice(0, 200) });
  }
  return anchors;
}

const EXECUTABLE = /^(|text\/javascript|application\/javascript|module|text\/ecmascript)$/i;

export interface HtmlResources {
  scripts: string[];
  iframes: string[];
  /** Code of inline scripts, each cut to 5000 characters. */
  inlineScripts: string[];
}

export function extractResources(html: string, pageUrl: URL): HtmlResources {
  const clean = withoutComments(html);
  const base = baseUrl(clean, pageUrl);
  const scripts: string[] = [];
  const inlineScripts: string[] = [];
  for (const m of clean.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = attributesOf(m[1]!);
    const src = absolute(attrs.src, base);
    if (src) scripts.push(src);
    else if (EXECUTABLE.test((attrs.type ?? '').trim()) && m[2]!.trim() !== '') inlineScripts.push(m[2]!.trim().slice(0, 5000));
  }
  const iframes: string[] = [];
  // An <object data> or <embed src> with a web page is a frame too (a YouTube player in either): the widget holds
  // them by the iframe markers (widget/src/iframes.ts), so the scan reports their addresses with the iframes.
  for (const m of clean.matchAll(/<(iframe|object|embed)\b([^>]*)>/gi)) {
    const attrs = attributesOf(m[2]!);
    const src = absolute((m[1]!.toLowerCase() === 'object' ? attrs.data : attrs.src) || attrs['data-src'], base);
    if (src && /^https?:/.test(src)) iframes.push(src);
  }
  return { scripts, iframes, inlineScripts };
}

const BLOCK = /<\/?(br|p|div|li|ul|ol|h[1-6]|tr|table|address|section|article|header|footer|aside|nav|main|dd|dt|dl|blockquote|pre|hr|form|fieldset|figure|figcaption)\b[^>]*>/gi;

/** Visible text with one line per block, roughly what `innerText` gives in a browser. */
export function htmlToText(html: string): string {
  const body = withoutComments(html)
    .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<\/?(td|th)\b[^>]*>/gi, '\t')
    .replace(BLOCK, '\n');
  return decodeEntities(stripTags(body, ''))
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
