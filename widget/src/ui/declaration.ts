/** The cookie declaration: every `.ccm-cookie-declaration` element of the page lists purposes, embeddings and their assets. */
import { c, doc, em, S } from '../state.js';
import { bundle, localeFor, t, texts } from '../i18n.js';
import { assetTable, h, purposes } from './dom.js';
import { T } from '../text-fields.js';

export const declaration = () =>
  doc.querySelectorAll('.ccm-cookie-declaration').forEach((el) => {
    // data-lang: this declaration in that locale of the domain, whatever language the banner shows.
    const visitors = S.lang;
    S.lang = localeFor(el.getAttribute('data-lang') || S.lang) || S.lang;
    el.replaceChildren(
      c.cd[2] ? h('p', {}, t(T.widgetIntroText)) : '',
      c.cd[1] ? h('p', {}, h('a', { href: '#CCM.openControlPanel' }, t(T.changeConsentText))) : '',
      ...purposes().map((p) =>
        h('div', {}, h(`h${c.cd[0]}`, {}, bundle().pu[p]![0]),
          ...em.filter((e) => e.p == p).map((e) => h('div', {}, h(`h${c.cd[0] + 1}`, {}, texts(e)[0]), h('p', {}, texts(e)[2]), assetTable(texts(e)[11])))),
      ),
    );
    S.lang = visitors;
  });
