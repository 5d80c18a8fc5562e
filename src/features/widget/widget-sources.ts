import { accountThemesFor, standardTexts } from '../account/account.service.js';
import type { Deps } from '../../deps.js';
import { withAssets } from '../embeddings/embeddings.service.js';
import { listEmbeddingRows } from '../embeddings/embeddings.repository.js';
import { listLocaleRows } from '../locales/locales.repository.js';
import { parseStoredTexts } from '../locales/locales.service.js';
import { appliedLegalLinks } from '../onboarding/onboarding.repository.js';
import { listPlaceholderRows } from '../placeholders/placeholders.repository.js';
import { linkedVendorName } from '../tcf/tcf.service.js';
import { listThemeRows } from '../themes/themes.repository.js';
import type { WidgetSource } from './widget-config.js';

/**
 * What a domain's widget is made of, read in one go: the served widget and the console's theme preview both
 * start here, so the preview shows the embeddings, texts and links visitors get (it had its own copy of these
 * reads, without the GVL vendor names).
 */
export async function readWidgetSources(deps: Deps, domainId: string) {
  const db = deps.db;
  const [embeddingRows, localeRows, placeholderRows, themeRows, legalLinks, accountThemes, standard] = await Promise.all([
    listEmbeddingRows(db, domainId),
    listLocaleRows(db, domainId),
    listPlaceholderRows(db, domainId),
    listThemeRows(db, domainId),
    appliedLegalLinks(db, domainId),
    accountThemesFor(db, domainId),
    standardTexts(db),
  ]);
  // A GVL-linked embedding shows the vendor's GVL name (reference-model §2.5 Embedding `tcfVendor`).
  const embeddings = (await withAssets(db, embeddingRows.filter((r) => r.active === 1)))
    .map((e) => ({ ...e, vendor: linkedVendorName(deps, e.tcfVendor) ?? e.vendor }));
  const locales = localeRows.filter((l) => l.active === 1).map((l) => ({ name: l.name, stored: parseStoredTexts(l.texts) }));
  return {
    themeRows,
    accountThemes,
    /** The parts of `WidgetSource` that come from the domain's rows and the account, whoever asks. */
    source: {
      consentUrl: `${deps.config.publicUrl}/public/consent`,
      embeddings,
      locales,
      placeholders: placeholderRows.map((p) => ({ name: p.name, value: p.value })),
      legalLinks,
      standardTexts: standard,
      footer: deps.config.widgetFooter,
      videoPreviews: deps.config.videoPreviews.enabled,
    } satisfies Partial<WidgetSource>,
  };
}
