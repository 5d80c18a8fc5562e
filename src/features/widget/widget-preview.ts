import { standardTexts } from '../account/account.service.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { CONFIG_TOKEN } from '../../../widget/build.js';
import { requireDomain } from '../domains/domain-scope.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import { withAssets } from '../embeddings/embeddings.service.js';
import { listEmbeddingRows } from '../embeddings/embeddings.repository.js';
import { listLocaleRows } from '../locales/locales.repository.js';
import { parseStoredTexts } from '../locales/locales.service.js';
import { appliedLegalLinks } from '../onboarding/onboarding.repository.js';
import { listPlaceholderRows } from '../placeholders/placeholders.repository.js';
import type { ThemeSettings } from '../themes/themes.schemas.js';
import { listThemeRows } from '../themes/themes.repository.js';
import { themeRowToTheme } from '../themes/themes.service.js';
import { buildWidgetConfig } from './widget-config.js';
import { widgetCode } from './widget-code.js';

export interface PreviewRequest {
  /** The theme the settings apply to; default: the domain's default theme. */
  themeId?: string | undefined;
  /** Unsaved theme settings laid over it (the form being edited). */
  theme?: Partial<ThemeSettings> | undefined;
  lang?: string | undefined;
}

/**
 * The real widget of a domain (its embeddings, locales, placeholders and legal links) with a theme that may
 * not be saved yet, for the console's live preview. It is inert toward the consent log: no client key, no
 * consent token and no snapshot, so a decision clicked in the preview is refused by `POST /public/consent`;
 * nothing is counted against the widget quota and nothing is cached.
 */
export async function previewWidget(deps: Deps, clientId: string, domainId: string, req: PreviewRequest): Promise<string> {
  const row = await requireDomain(deps.db, deps.engine, clientId, domainId);
  const [embeddingRows, localeRows, placeholderRows, themeRows, legalLinks] = await Promise.all([
    listEmbeddingRows(deps.db, domainId),
    listLocaleRows(deps.db, domainId),
    listPlaceholderRows(deps.db, domainId),
    listThemeRows(deps.db, domainId),
    appliedLegalLinks(deps.db, domainId),
  ]);
  const themeRow = req.themeId !== undefined
    ? themeRows.find((t) => t.id === req.themeId)
    : themeRows.find((t) => t.is_default === 1) ?? themeRows[0];
  if (!themeRow) throw new AppError('THEME_NOT_FOUND');
  const built = buildWidgetConfig(
    {
      clientApiKey: '',
      consentUrl: `${deps.config.publicUrl}/public/consent`,
      domain: domainRowToDomain(row),
      configRevision: row.config_revision,
      legalRevision: row.legal_revision,
      embeddings: await withAssets(deps.db, embeddingRows.filter((r) => r.active === 1)),
      locales: localeRows.filter((l) => l.active === 1).map((l) => ({ name: l.name, stored: parseStoredTexts(l.texts) })),
      placeholders: placeholderRows.map((p) => ({ name: p.name, value: p.value })),
      theme: { ...themeRowToTheme(themeRow), ...req.theme },
      legalLinks,
      // As a visitor would see it: the agency's footer line and standard texts (docs/account.md) too.
      footer: deps.config.widgetFooter,
      standardTexts: await standardTexts(deps.db),
    },
    { forced: req.lang },
  );
  const served = { ...built, sh: '', tk: '' };
  return (await widgetCode()).replace(CONFIG_TOKEN, () => `JSON.parse(${JSON.stringify(JSON.stringify(served))})`);
}
