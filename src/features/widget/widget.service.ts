import type { ConsentStatistics } from '../statistics/consent-statistics.js';
import { accountThemesFor } from '../account/account.service.js';
import { createHash } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { metrics } from '../../metrics.js';
import { parseFeatures } from '../clients/clients.service.js';
import { usesOptions, widgetCode, withConfig } from './widget-code.js';
import { readWidgetSources } from './widget-sources.js';
import { pageMatchesDomain } from '../domains/domain-name.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import { createDomain } from '../domains/domains.service.js';
import { BUILTIN_LANGUAGES } from '../locales/builtin-texts.js';
import { listLocaleRows } from '../locales/locales.repository.js';
import { listThemeRows } from '../themes/themes.repository.js';
import { themeRowToTheme } from '../themes/themes.service.js';
import { keepServedSnapshot } from '../consent-log/consent-log.snapshots.service.js';
import type { CallCounter } from './call-counter.js';
import { ConsentTokens } from '../consent-ingest/consent-token.js';
import type { IngestStats } from '../consent-ingest/ingest-stats.js';
import { languageOf } from '../locales/locale-texts.js';
import { RecentKeys, WindowLimiter, addressKey, exemptAddresses } from '../../plugins/rate-limiter.js';
import { quotaNoticesFor } from '../quotas/quotas.notices.js';
import { outsideGdprArea } from './gdpr-area.js';
import { buildWidgetConfig, type LanguageChoice } from './widget-config.js';
import { compressed, pickEncoding } from './script-chunk.js';
import { FALLBACK } from './strict-policy.js';
import { gvlStoreFor } from '../tcf/tcf.gvl.js';
import { tcfPrefix, tcfSuffix } from '../tcf/tcf.code.js';
import { tcfTexts, tcfUnavailable, tcfWidgetConfig } from '../tcf/tcf.service.js';
import { effectiveTexts } from '../locales/locale-texts.js';
import { foundSettings, ignoredScripts } from '../found/found.service.js';
import { foundPrefix } from '../found/found.code.js';
import { countDomainsCreatedSince, findClientForAutoCreate, findDomainOfClientByHost, findWidgetTarget } from './widget.repository.js';

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
  /** The source address (request.ip, which honours TRUST_PROXY); excluded ranges are not counted (QUOTA_EXCLUDE_IPS). */
  ip?: string | undefined;
  /** The visitor's user agent: bots are not counted (QUOTA_EXCLUDE_USER_AGENTS). */
  userAgent?: string | undefined;
}

export interface WidgetResponse {
  status: 200 | 304;
  body: Buffer | string;
  headers: Record<string, string>;
  /** Over the per-address limit: seconds until it resets (sent as Retry-After). */
  retryAfter?: number;
}

/** One delivery: the domain, the token hour, and how the answer is encoded. */
interface Delivery {
  target: NonNullable<Awaited<ReturnType<typeof findWidgetTarget>>>;
  domain: ReturnType<typeof domainRowToDomain>;
  issued: number;
  encoding: 'identity' | 'gzip' | 'br';
  ifNoneMatch: string | undefined;
  /** Served the bundle with the cross-domain hand-over (decided once per request: it parses the client's flags). */
  sx: boolean;
}

interface CacheEntry {
  /** Issue time of the consent token inside (ConsentTokens.issueTime): an entry of an earlier hour is rebuilt. */
  issued: number;
  variants: Record<'identity' | 'gzip' | 'br', { body: Buffer; etag: string }>;
  /** The theme shows no banner outside the GDPR area (enableOnlyInEu): such visitors get a variant of their own. */
  euOnly: boolean;
}

const MAX_CACHE_ENTRIES = 1000;

/** The hand-over variant: the domain shares consent across domains and its client may (canUseConsentSharing). */
const crossDomain = (target: { features: string }, domain: { consentSharingCrossDomain: boolean }) =>
  domain.consentSharingCrossDomain && parseFeatures(target.features).canUseConsentSharing !== false;

/**
 * Why a domain's widget is served in blocked mode (docs/widget.md, "Fail closed"): the script runs its
 * blocking, shows no banner, treats everything as declined and says why in the console.
 */
const BLOCKED = {
  quota: "the client's widget quota for this month is used up",
  disabled: 'the widget is switched off for this domain',
  rate: 'too many widget loads from this address; try again in a minute',
  scheme: "the page's scheme (http or https) is not the one the domain is configured for",
  changing: 'the domain changed while loading; reload the page',
} as const;
type BlockedReason = keyof typeof BLOCKED;

/** The served configuration: WidgetConfig plus what the server adds per delivery (docs/widget.md). */
type ServedConfig = ReturnType<typeof buildWidgetConfig> & {
  /** the consent token (docs/consent-log.md, "Widget tokens") */
  tk: string;
  /** blocked mode: the reason, shown in the console */
  bl?: string;
};

/** What a domain's variants can be keyed by (theme ids, active locale names), per configuration revision. */
interface DomainKeys {
  revision: number;
  themeIds: Set<string>;
  locales: Set<string>;
}
const NOOP_HEADERS = { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-store' };

/**
 * A script that explains, once, in the console why no banner appears, and lets the snippet's fallback (when the
 * snippet has it: strict-policy.ts, fallbackScript) keep third-party content blocked on the page (fail closed).
 */
const notice = (message: string): WidgetResponse => ({
  status: 200,
  body: `console.warn(${JSON.stringify(`Placet: ${message}`)});self.${FALLBACK}&&${FALLBACK}();`,
  headers: NOOP_HEADERS,
});

export class WidgetService {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly keys = new Map<string, DomainKeys>();
  private readonly perAddress: WindowLimiter;
  /** One count per (address, domain, page) within WIDGET_COUNT_WINDOW_SECONDS (a sliding window). */
  private readonly seen: RecentKeys;
  private readonly exempt: (ip: string) => boolean;
  /** The script differs by encoding, language and, with COUNTRY_HEADER, the visitor's area. */
  private readonly vary: string;

  constructor(
    private readonly deps: Deps,
    private readonly counter: CallCounter,
    private readonly tokens: ConsentTokens,
    private readonly stats: IngestStats,
    private readonly statistics?: ConsentStatistics,
  ) {
    const { limits } = deps.config;
    this.perAddress = new WindowLimiter(limits.enabled ? limits.widgetPerAddressPerMinute : 0, 60_000, deps.clock);
    this.seen = new RecentKeys(limits.widgetCountWindowSeconds * 1000, deps.clock, 200_000);
    this.exempt = exemptAddresses(limits);
    const country = deps.config.countryHeader;
    this.vary = ['Accept-Encoding', 'Accept-Language', ...(country ? [country] : [])].join(', ');
  }

  /** Builds both bundles before the first request (each is built once per process and kept by widgetCode). */
  async init(): Promise<void> {
    await Promise.all([widgetCode(false), widgetCode(true)]);
  }

  get cacheSize(): number {
    return this.cache.size;
  }

  async serve(req: WidgetRequest): Promise<WidgetResponse> {
    const page = pageOf(req.origin, req.referer);
    if (!page) return notice('the page sent no Referer/Origin (keep referrerpolicy="origin" on the snippet); no banner.');
    const ip = req.ip ?? '';
    const overRate = this.perAddress.active && !this.exempt(ip) ? this.perAddress.hit(addressKey(ip)) : 0;
    const domainId = req.domain ?? (overRate === 0 ? await this.domainForHost(req.apiKey, page) : undefined);
    const target = domainId ? await findWidgetTarget(this.deps.db, req.apiKey, domainId) : undefined;
    // "Not ours": the one case in which the page gets no widget at all (docs/widget.md, "Fail closed").
    if (!target) return notice('unknown apiKey or domain; no banner.');
    const domain = domainRowToDomain(target);
    if (!pageMatchesDomain(page, target.name, domain.consentSharingDomains)) {
      return notice(`this domain is configured for ${target.name}, not ${page.host}; no banner.`);
    }
    const keys = await this.domainKeys(target.id, target.config_revision);
    const nowSeconds = Math.floor(this.deps.clock.now().getTime() / 1000);
    const issued = ConsentTokens.issueTime(nowSeconds);
    const delivery = { target, domain, issued, encoding: pickEncoding(req.acceptEncoding), ifNoneMatch: req.ifNoneMatch, sx: crossDomain(target, domain) };
    if (overRate > 0) return { ...(await this.blocked(delivery, 'rate')), retryAfter: overRate };
    // The site's own host under the other scheme (reference model: "http vs https matters"): the page is the
    // owner's, so it is served fail closed, with everything blocked and nobody asked, not left without a widget.
    if (page.protocol !== `${target.scheme}:`) return this.blocked(delivery, 'scheme');
    if (!domain.frontendWidgetEnabled) return this.blocked(delivery, 'disabled');
    const max = target.widget_display_max_count;
    if (max !== -1) {
      const used = await this.counter.clientMonthTotal(target.client_id);
      quotaNoticesFor(this.deps).observe(target.client_id, used, max); // quota thresholds: log line, notices (src/features/quotas)
      if (used >= max) return this.blocked(delivery, 'quota');
    }
    if (
      quotaNoticesFor(this.deps).policy.counts(ip, req.userAgent) &&
      this.seen.first(`${addressKey(ip)}|${target.id}|${page.origin}${page.pathname}`)
    ) {
      this.counter.count(target.id, target.client_id);
      this.stats.loaded(target.id);
      this.statistics?.call(target.id, req.userAgent);
    }

    // Only a known theme or language gets a variant of its own; anything else is keyed (and built) as the
    // default, so random values cannot make the server compress a new variant per request (#16 item 5).
    const theme = req.theme !== undefined && keys.themeIds.has(req.theme) ? req.theme : '';
    const forced = forcedLanguage(req.lang, keys.locales);
    const offer = domain.offerBuiltinLanguages || keys.locales.size === 0;
    const choice: LanguageChoice = { forced, acceptLanguage: offer ? preferredBuiltin(req.acceptLanguage, keys.locales) : undefined };
    // A TCF domain's vendor selection follows the GVL version too (a refresh changes it without a revision).
    const gvl = domain.tcfEnabled ? `:g${gvlStoreFor(this.deps).current?.vendorListVersion ?? 0}` : '';
    // The code variant is part of the key (the revision changes with the setting too, but the key says so).
    const sx = delivery.sx ? 'sx' : '';
    const key = `${target.id}:${target.config_revision}${gvl}:${sx}:${theme}:${forced ?? ''}:${choice.acceptLanguage ?? ''}`;
    const variant = (k: string, outside: boolean) => this.entry(k, delivery, () => this.build(delivery, theme, choice, outside));
    // Only a theme with enableOnlyInEu differs for visitors from outside the area; which theme applies is
    // known once the common variant is built, so every other domain keeps one cache entry per language.
    let entry = await variant(key, false);
    if (entry?.euOnly && outsideGdprArea(req.country)) entry = await variant(`${key}:o`, true);
    if (!entry) return this.blocked(delivery, 'changing');
    return this.respond(entry, delivery);
  }

  /** The domain's widget in blocked mode: cached per domain, revision and reason; never counted. */
  private async blocked(delivery: Delivery, reason: BlockedReason): Promise<WidgetResponse> {
    const key = `${delivery.target.id}:${delivery.target.config_revision}:${delivery.sx ? 'sx' : ''}:blocked:${reason}`;
    const entry = await this.entry(key, delivery, () => this.build(delivery, '', {}, false, reason));
    if (!entry) return notice(`${BLOCKED[reason]}; no banner.`);
    return this.respond(entry, delivery);
  }

  /** A cached entry of this configuration revision and token hour, else a new one (cached if still current). */
  private async entry(key: string, delivery: Delivery, build: () => Promise<CacheEntry | undefined>): Promise<CacheEntry | undefined> {
    const found = this.cache.get(key);
    const hit = found !== undefined && found.issued === delivery.issued;
    metrics.widgetCache(hit);
    if (hit) return found;
    const built = await build();
    if (built && (await this.revisionOf(delivery.target.id)) === delivery.target.config_revision) this.remember(key, built);
    return built;
  }

  private respond(entry: CacheEntry, delivery: Delivery): WidgetResponse {
    const encoded = entry.variants[delivery.encoding];
    const headers: Record<string, string> = {
      'content-type': 'application/javascript; charset=utf-8',
      'cache-control': 'no-cache',
      etag: encoded.etag,
      vary: this.vary,
    };
    if (delivery.encoding !== 'identity') headers['content-encoding'] = delivery.encoding;
    if (delivery.ifNoneMatch && delivery.ifNoneMatch.split(/\s*,\s*/).includes(encoded.etag)) {
      return { status: 304, body: '', headers };
    }
    return { status: 200, body: encoded.body, headers };
  }

  /** Theme ids and active locale names of the domain at this revision (read once per revision). */
  private async domainKeys(domainId: string, revision: number): Promise<DomainKeys> {
    const known = this.keys.get(domainId);
    if (known && known.revision === revision) return known;
    const [themes, locales, accountThemes] = await Promise.all([
      listThemeRows(this.deps.db, domainId),
      listLocaleRows(this.deps.db, domainId),
      accountThemesFor(this.deps.db, domainId),
    ]);
    const keys = {
      revision,
      themeIds: new Set([...themes.map((t) => t.id), ...accountThemes.map((t) => t.id)]),
      locales: new Set(locales.filter((l) => l.active === 1).map((l) => l.name)),
    };
    if (this.keys.size >= MAX_CACHE_ENTRIES * 10) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(domainId, keys);
    return keys;
  }

  /** Without `domain` in the snippet: the client's domain for this host, created when autoCreateDomains is on. */
  private async domainForHost(apiKey: string, page: URL): Promise<string | undefined> {
    const existing = await findDomainOfClientByHost(this.deps.db, apiKey, page.host);
    if (existing) return existing.id;
    const client = await findClientForAutoCreate(this.deps.db, apiKey);
    if (!client || client.auto_create_domains !== 1) return undefined;
    // AUTO_CREATE_DOMAINS_PER_HOUR, counted in the database so it holds across processes (two processes
    // creating at the same moment may each pass once); the client's domain quota applies in createDomain.
    const since = new Date(this.deps.clock.now().getTime() - 3_600_000).toISOString();
    if ((await countDomainsCreatedSince(this.deps.db, client.id, since)) >= this.deps.config.limits.autoCreateDomainsPerHour) {
      this.deps.log.warn({ clientId: client.id }, 'autoCreateDomains: hourly limit reached; no domain created');
      return undefined;
    }
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
    delivery: Delivery,
    themeId: string,
    choice: LanguageChoice,
    outsideGdprArea: boolean,
    blocked?: BlockedReason,
  ): Promise<CacheEntry | undefined> {
    const { target, domain, issued } = delivery;
    const domainId = target.id;
    const { themeRows, accountThemes, source } = await readWidgetSources(this.deps, domainId);
    // A theme the snippet pins (the domain's or an account theme distributed to it), else the agency's account
    // theme for this domain unless the domain keeps its own, else the domain's default (docs/account.md).
    const pinned = themeRows.find((t) => t.id === themeId);
    const fallback = themeRows.find((t) => t.is_default === 1) ?? themeRows[0];
    const theme = pinned
      ? themeRowToTheme(pinned)
      : (accountThemes.find((t) => t.id === themeId) ??
        (domain.useAccountTheme ? accountThemes[0] : undefined) ??
        (fallback ? themeRowToTheme(fallback) : undefined));
    if (!theme) return undefined;
    const { embeddings } = source;
    const built = buildWidgetConfig(
      {
        ...source,
        clientApiKey: target.api_key,
        domain,
        configRevision: target.config_revision,
        legalRevision: target.legal_revision,
        theme,
        outsideGdprArea,
        features: parseFeatures(target.features),
        ignoredScripts: domain.blockNewScripts ? await ignoredScripts(this.deps, domainId) : [],
      },
      choice,
    );
    const tcf = domain.tcfEnabled && !blocked ? await tcfWidgetConfig(this.deps, domain, embeddings, Object.keys(built.loc)) : undefined;
    if (tcf) {
      const stored = new Map(source.locales.map((l) => [l.name, l.stored]));
      tcf.t = Object.fromEntries(Object.keys(built.loc).map((name) => [name, tcfTexts(effectiveTexts(name, stored.get(name)))]));
      built.tcf = tcf;
    }
    // What the visitor will see is kept before it is served; each decision names it by `sh` (consent log). The
    // snapshot is of the built configuration: the hourly token and blocked mode are delivery, not what is shown.
    const sh = await keepServedSnapshot(this.deps, domainId, built, target.config_revision);
    const served: ServedConfig = { ...built, sh, tk: this.tokens.mint(domainId, target.config_revision, issued) };
    if (blocked) served.bl = `Placet: ${BLOCKED[blocked]}; the page runs nothing that needs consent.`;
    // The TCF variant (widget/build.ts) is built on its first use: most instances serve no TCF domain.
    // Strict blocking's part of the widget only where the configuration names embeddings for it (widget-config.ts).
    // The options most domains leave off likewise (usesOptions): those domains carry none of their code.
    const code = withConfig(await widgetCode(delivery.sx, !!tcf, served.st.length > 0, usesOptions(served)), served);
    // TCF: the IAB stub runs first, synchronously, so vendor scripts can queue __tcfapi calls before the
    // widget and its TCF chunk have loaded (docs/tcf.md). Without a CMP id or GVL: a console line says why.
    const unavailable = domain.tcfEnabled && !tcf && !blocked ? tcfUnavailable(this.deps) : undefined;
    const prefix = tcf ? await tcfPrefix(built, tcf) : unavailable ? `console.warn(${JSON.stringify(`Placet: no TCF signal: ${unavailable}.`)});\n` : '';
    // Found items (docs/found-items.md): a few lines that load the reporter chunk, at most once per browser and day.
    const reporter = blocked ? undefined : foundSettings(this.deps, domain, embeddings, { d: domainId, r: target.config_revision, tk: served.tk });
    const body = Buffer.from(prefix + (reporter ? foundPrefix(reporter) : '') + code + (tcf ? await tcfSuffix() : ''));
    const etag = (buf: Buffer, suffix: string) =>
      `"${createHash('sha256').update(buf).digest('base64url').slice(0, 32)}${suffix}"`;
    // Brotli 9, not 11: every domain, theme, language and hour is compressed once, on a request.
    const { br, gzip } = compressed(body, 9);
    return {
      issued,
      variants: {
        identity: { body, etag: etag(body, '') },
        br: { body: br, etag: etag(body, '-br') },
        gzip: { body: gzip, etag: etag(body, '-gz') },
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

/**
 * The snippet's `lang` as a cache key: an active locale of the domain as is, a built-in language by its
 * language code (`fr_XX` → `fr`), anything else ignored.
 */
function forcedLanguage(lang: string | undefined, locales: ReadonlySet<string>): string | undefined {
  if (lang === undefined || locales.has(lang)) return lang;
  const language = languageOf(lang);
  return (BUILTIN_LANGUAGES as readonly string[]).includes(language) ? language : undefined;
}

/**
 * The built-in language to offer this browser: its most preferred language (by `q`), if that is built in and no
 * active locale of the domain has it. A preferred language the domain has, or one with no built-in texts
 * followed by one the domain has, gives none: the visitor reads the domain's own texts. Keys the cache, so at
 * most one variant per built-in language.
 */
function preferredBuiltin(header: string | undefined, locales: ReadonlySet<string>): string | undefined {
  if (!header) return undefined;
  const own = new Set([...locales].map(languageOf));
  const langs = header
    .split(',')
    .map((part) => {
      const [tag, q] = part.trim().split(';q=');
      return { lang: (tag ?? '').split('-')[0]!.toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q);
  const first = langs.find((l) => own.has(l.lang) || (BUILTIN_LANGUAGES as readonly string[]).includes(l.lang));
  return first && !own.has(first.lang) ? first.lang : undefined;
}

