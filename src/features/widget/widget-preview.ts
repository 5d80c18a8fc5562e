import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { requireDomain } from '../domains/domain-scope.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import type { ThemeSettings } from '../themes/themes.schemas.js';
import { themeRowToTheme } from '../themes/themes.service.js';
import { buildWidgetConfig } from './widget-config.js';
import { usesOptions, widgetCode, withConfig } from './widget-code.js';
import { readWidgetSources } from './widget-sources.js';

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
  const { themeRows, source } = await readWidgetSources(deps, domainId);
  const themeRow = req.themeId !== undefined
    ? themeRows.find((t) => t.id === req.themeId)
    : themeRows.find((t) => t.is_default === 1) ?? themeRows[0];
  if (!themeRow) throw new AppError('THEME_NOT_FOUND');
  const built = buildWidgetConfig(
    {
      ...source,
      clientApiKey: '',
      domain: domainRowToDomain(row),
      configRevision: row.config_revision,
      legalRevision: row.legal_revision,
      theme: { ...themeRowToTheme(themeRow), ...req.theme },
    },
    { forced: req.lang },
  );
  // The options variant where the theme or domain needs it: the check-all buttons and legal texts shown inside the widget are only there.
  return withConfig(await widgetCode(false, false, false, usesOptions(built)), { ...built, sh: '', tk: '' });
}
