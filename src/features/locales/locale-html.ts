import sanitizeHtml from 'sanitize-html';

/**
 * What a locale's legal HTML (imprint, privacy policy, accessibility statement) may contain once stored.
 * The widget writes it with innerHTML into the visitor's page, so it is text formatting only: no script,
 * no event handler, no style, no form, no embedded document, no SVG or MathML (whose parsing differs from
 * HTML's and is a classic source of mutation XSS), and links only to http(s), mailto and tel (relative
 * links resolve against the visitor's page). See docs/widget.md, "Legal pages".
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'div', 'span', 'section', 'article', 'header', 'footer',
    'address', 'blockquote', 'pre', 'code', 'a', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'abbr',
    'mark', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  ],
  allowedAttributes: {
    '*': ['title', 'lang', 'dir'],
    a: ['href', 'target', 'rel'],
    ol: ['start', 'type'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Elements whose content is code or raw text go with their content, not only their tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'noembed', 'noframes',
    'xmp', 'title', 'svg', 'math', 'object', 'select'],
  disallowedTagsMode: 'discard',
  transformTags: {
    // A link that opens a new tab gets no handle on the visitor's page (window.opener).
    a: (tagName, attribs) =>
      attribs.target === undefined
        ? { tagName, attribs }
        : { tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } },
  },
};

/** The allowed subset of `html`; the same input always gives the same output, and sanitising twice changes nothing. */
export function sanitizeLegalHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/**
 * Placeholders (`{NAME}`) are filled in when the widget's configuration is built, after the stored HTML was
 * sanitised; a value filled in (a tag, or `javascript:` inside an href) is sanitised again with the result.
 */
export function fillLegalHtml(html: string, fill: (text: string) => string): string {
  const filled = fill(html);
  return filled === html ? html : sanitizeLegalHtml(filled);
}
