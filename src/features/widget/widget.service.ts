import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { CONFIG_TOKEN, buildWidget } from '../../../widget/build.js';
import { pageMatchesDomain } from '../domains/domain-name.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import { createDomain } from '../domains/domains.service.js';
import { withAssets } from '../embeddings/embeddings.service.js';
import { listEmbeddingRows } from '../embeddings/embeddings.repository.js';
import { BUILTIN_LANGUAGES } from '../locales/builtin-texts.js';
import { listLocaleRows } from '../locales/locales.repository.js';
import { parseStoredTexts } from '../locales/locales.service.js';
import { listPlaceholderRows } from '../placeholders/placeholders.repository.js';
import { listThemeRows } from '../themes/themes.repository.js';
import { themeRowToTheme } from '../themes/themes.service.js';
import type { CallCounter } from './call-counter.js';
import { quotaNoticesFor } from '../quotas/quotas.notices.js';
import { outsideGdprArea } from './gdpr-area.js';
import { buildWidgetConfig, type LanguageChoice } from './widget-config.js';
import { findClientForAutoCreate, findDomainOfClientByHost, findWidgetTarget } from './widget.repository.js';

export interface WidgetRequest {
  apiKey: string;
  domain?: string | undefined;
  lang?: string | undefined;
  theme?: string | undefined;
  origin?: string | undefined;
  referer?: string | undefined;
  acceptLanguage?: string | undefined;
  /** The visitor's country from the configured trusted header (`COUNTRY_HEADER`). */
  country?: string | undefined;
  acceptEncoding?: string | undefined;
  ifNoneMatch?: string | undefined;
  /** The visitor's address and user agent: excluded ranges and bots are not counted (QUOTA_EXCLUDE_*). */
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export interface WidgetResponse {
  status: 200 | 304;
  body: Buffer | string;
  headers: Record<string, string>;
}

interface CacheEntry {
  variants: Record<'identity' | 'gzip' | 'br', { body: Buffer; etag: string }>;
  /** The theme shows no banner outside the GDPR area (enableOnlyInEu): such visitors get a variant of their own. */
  euOnly: boolean;
}

const MAX_CACHE_ENTRIES = 1000;
const NOOP_HEADERS = { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-store' };

/** A script that only explains, once, in the console why no banner appears. */
const notice = (message: string): WidgetResponse => ({
  status: 200,
  body: `console.warn(${JSON.stringify(`Placet: ${message}`)});`,
  headers: NOOP_HEADERS,
});

export class WidgetService {
  private code = '';
  private readonly cache = new Map<string, CacheEntry>();
  /** The script differs by encoding, language and, with COUNTRY_HEADER, the visitor's area. */
  private readonly vary: string;

  constructor(
    private readonly deps: Deps,
    private readonly counter: CallCounter,
  ) {
    const country = deps.config.countryHeader;
    this.vary = ['Accept-Encoding', 'Accept-Language', ...(country ? [country] : [])].join(', ');
  }

  async init(): Promise<void> {
    this.code = await buildWidget();
  }

  get cacheSize(): number {
    return this.cache.size;
  }

  async serve(req: WidgetRequest): Promise<WidgetResponse> {
    const page = pageOf(req.origin, req.referer);
    if (!page) return notice('the page sent no Referer/Origin (keep referrerpolicy="origin" on the snippet); no banner.');
    const domainId = req.domain ?? (await this.domainForHost(req.apiKey, page));
    const target = domainId ? await findWidgetTarget(this.deps.db, req.apiKey, domainId) : undefined;
    if (!target) return notice('unknown apiKey or domain; no banner.');
    const domain = domainRowToDomain(target);
    if (!pageMatchesDomain(page, target.name, domain.consentSharingDomains)) {
      return notice(`this domain is configured for ${target.name}, not ${page.host}; no banner.`);
    }
    if (!domain.frontendWidgetEnabled) return notice('the widget is switched off for this domain.');
    const max = target.widget_display_max_count;
    if (max !== -1) {
      const used = await this.counter.clientMonthTotal(target.client_id);
      quotaNoticesFor(this.deps).observe(target.client_id, used, max); // quota thresholds: log line, notices (src/features/quotas)
      if (used >= max) return notice('Quota exceeded');
    }
    if (quotaNoticesFor(this.deps).policy.counts(req.ip, req.userAgent)) this.counter.count(target.id, target.client_id);

    const choice: LanguageChoice = { forced: req.lang, acceptLanguage: builtinFromAcceptLanguage(req.acceptLanguage) };
    const key = `${target.id}:${target.config_revision}:${req.theme ?? ''}:${req.lang ?? ''}:${choice.acceptLanguage ?? ''}`;
    const variant = async (k: string, outside: boolean) => {
      let found = this.cache.get(k);
      if (!found) {
        found = await this.build(target.id, target.api_key, target.config_revision, target.legal_revision, domain, req.theme, choice, outside);
        if (found && (await this.revisionOf(target.id)) === target.config_revision) this.remember(k, found);
      }
      return found;
    };
    // Only a theme with enableOnlyInEu differs for visitors from outside the area; which theme applies is
    // known once the common variant is built, so every other domain keeps one cache entry per language.
    let entry = await variant(key, false);
    if (entry?.euOnly && outsideGdprArea(req.country)) entry = await variant(`${key}:o`, true);
    if (!entry) return notice('the domain changed while loading; reload the page.');
    const encoding = pickEncoding(req.acceptEncoding);
    const encoded = entry.variants[encoding];
    const headers: Record<string, string> = {
      'content-type': 'application/javascript; charset=utf-8',
      'cache-control': 'no-cache',
      etag: encoded.etag,
      vary: this.vary,
    };
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    if (req.ifNoneMatch && req.ifNoneMatch.split(/\s*,\s*/).includes(encoded.etag)) {
      return { status: 304, body: '', headers };
    }
    return { status: 200, body: encoded.body, headers };
  }

  /** Without `domain` in the snippet: the client's domain for this host, created when autoCreateDomains is on. */
  private async domainForHost(apiKey: string, page: URL): Promise<string | undefined> {
    const existing = await findDomainOfClientByHost(this.deps.db, apiKey, page.host);
    if (existing) return existing.id;
    const client = await findClientForAutoCreate(this.deps.db, apiKey);
    if (!client || client.auto_create_domains !== 1) return undefined;
    try {
      return (await createDomain(this.deps, client.id, { name: `${page.protocol}//${page.host}` })).id;
    } catch (err) {
      if (err instanceof AppError) {
        // A concurrent request may have created it; quota or invalid host means no domain.
        return (await findDomainOfClientByHost(this.deps.db, apiKey, page.host))?.id;
      }
      throw err;
    }
  }

  private async revisionOf(domainId: string): Promise<number | undefined> {
    const row = await this.deps.db.selectFrom('domains').select('config_revision').where('id', '=', domainId).executeTakeFirst();
    return row?.config_revision;
  }

  private async build(
    domainId: string,
    apiKey: string,
    configRevision: number,
    legalRevision: number,
    domain: ReturnType<typeof domainRowToDomain>,
    themeId: string | undefined,
    choice: LanguageChoice,
    outsideGdprArea: boolean,
  ): Promise<CacheEntry | undefined> {
    const db = this.deps.db;
    const [embeddingRows, localeRows, placeholderRows, themeRows] = await Promise.all([
      listEmbeddingRows(db, domainId),
      listLocaleRows(db, domainId),
      listPlaceholderRows(db, domainId),
      listThemeRows(db, domainId),
    ]);
    const themeRow = themeRows.find((t) => t.id === themeId) ?? themeRows.find((t) => t.is_default === 1) ?? themeRows[0];
    if (!themeRow) return undefined;
    const theme = themeRowToTheme(themeRow);
    const config = buildWidgetConfig(
      {
        clientApiKey: apiKey,
        consentUrl: `${this.deps.config.publicUrl}/public/consent`,
        domain,
        configRevision,
        legalRevision,
        embeddings: await withAssets(db, embeddingRows.filter((r) => r.active === 1)),
        locales: localeRows.filter((l) => l.active === 1).map((l) => ({ name: l.name, stored: parseStoredTexts(l.texts) })),
        placeholders: placeholderRows.map((p) => ({ name: p.name, value: p.value })),
        theme,
        outsideGdprArea,
      },
      choice,
    );
    // JSON.parse of a string literal is much cheaper for V8 than an equally large object literal.
    const body = Buffer.from(this.code.replace(CONFIG_TOKEN, () => `JSON.parse(${JSON.stringify(JSON.stringify(config))})`));
    const etag = (buf: Buffer, suffix: string) =>
      `"${createHash('sha256').update(buf).digest('base64url').slice(0, 32)}${suffix}"`;
    const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
    const gz = gzipSync(body, { level: 9 });
    return {
      variants: {
        identity: { body, etag: etag(body, '') },
        br: { body: br, etag: etag(body, '-br') },
        gzip: { body: gz, etag: etag(body, '-gz') },
      },
      euOnly: theme.enableOnlyInEu,
    };
  }

  private remember(key: string, entry: CacheEntry): void {
    if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, entry);
  }
}

/** The page that loaded the snippet: its Origin, else its Referer (the snippet sends the origin). */
function pageOf(origin: string | undefined, referer: string | undefined): URL | undefined {
  for (const candidate of [origin, referer]) {
    if (!candidate || candidate === 'null') continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url;
    } catch {
      // not a URL: try the next header
    }
  }
  return undefined;
}

function builtinFromAcceptLanguage(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const langs = header
    .split(',')
    .map((part) => {
      const [tag, q] = part.trim().split(';q=');
      return { lang: (tag ?? '').split('-')[0]!.toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q);
  return langs.find((l) => (BUILTIN_LANGUAGES as readonly string[]).includes(l.lang))?.lang;
}

function pickEncoding(header: string | undefined): 'identity' | 'gzip' | 'br' {
  if (!header) return 'identity';
  if (/\bbr\b/.test(header)) return 'br';
  if (/\bgzip\b/.test(header)) return 'gzip';
  return 'identity';
}
