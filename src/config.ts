import { isIP } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The one place that reads `process.env` (STYLE practice 16). Every variable is parsed and checked at
 * boot, every problem is reported at once, and the result is frozen.
 */
export interface Config {
  /** @default 8080 */
  readonly port: number;
  /** @default '0.0.0.0' */
  readonly host: string;
  readonly database: DatabaseConfig;
  /** Agency key for the Hosting API. `undefined` → generated on first start, only its hash stored. */
  readonly hostingApiKey: string | undefined;
  /** External base URL used in embed snippets. @default `http://localhost:$PORT` */
  readonly publicUrl: string;
  /** @default 'info' */
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body of the Hosting API, in bytes. @default 1048576 */
  readonly bodyLimitBytes: number;
  /** bcrypt cost factor for client passwords. @default 11 */
  readonly passwordHashCost: number;
  /** How often in-memory widget call counters are written to the database. @default 5000 */
  readonly counterFlushIntervalMs: number;
  /**
   * How long the found-items reporter waits after a page's load event before it looks (ms), so tags added
   * late (a tag manager's) are seen (docs/found-items.md). @default 3000
   */
  readonly foundReportDelayMs: number;
  /**
   * The permanent crawler's server side: each domain with permanentScanEnabled is re-scanned by the onboarding
   * scanner every this many hours (docs/found-items.md); 0 switches it off. @default 0
   */
  readonly foundRescanHours: number;
  /** Trust X-Forwarded-* from a reverse proxy (for client IPs). @default false */
  readonly trustProxy: boolean;
  /**
   * Request header (lower case) in which a trusted proxy or CDN puts the visitor's ISO country code, e.g.
   * `cf-ipcountry`; used by themes with `enableOnlyInEu`. Unset → every visitor is asked.
   */
  readonly countryHeader: string | undefined;
  /**
   * The agency's footer line in every widget that holds no white-label licence (reference model §6 (b)):
   * text ('' hides it everywhere) and an optional https link. @default { text: 'Placet', url: '' }
   */
  readonly widgetFooter: { readonly text: string; readonly url: string };
  readonly consentLog: {
    /** Records per data block before it is closed (archived) automatically. @default 100000 */
    readonly blockSize: number;
    /** Records older than this many days are deleted, whole blocks at a time. @default 395 */
    readonly retentionDays: number;
    /**
     * A block closes by size only once it has also been open this many hours, so anonymous volume alone
     * cannot close it (docs/consent-log.md, "Floods"). 0 or absent = by size alone. @default 24
     */
    readonly blockMinAgeHours?: number;
  };
  /** Limits on the public endpoints (README "Security model"); per process, see docs/consent-log.md. */
  readonly limits: Limits;
  /** Cross-domain consent hand-over (docs/widget.md, "Consent sharing between hosts"). */
  readonly handover: {
    /** How long an issued hand-over token can be redeemed, in seconds. @default 120 */
    readonly tokenTtlSeconds: number;
    /** Tokens one address may ask for, and redeem, per minute; 0 switches the limit off. @default 30 */
    readonly ratePerMinute: number;
    /** A token is redeemed only from the address that asked for it. @default true */
    readonly bindAddress: boolean;
  };
  /** Tokens that bind a consent to a widget Placet served (docs/consent-log.md, "Widget tokens"). */
  readonly consentToken: {
    /** HMAC secret (at least 32 characters). Unset → generated on first start and kept in the database. */
    readonly secret: string | undefined;
    /** How long a token is accepted after it was issued, in hours. @default 24 */
    readonly ttlHours: number;
    /** Refuse consents without a valid token. @default true */
    readonly required: boolean;
  };
  /** Signed checkpoints of each domain's consent-log chain (docs/consent-log.md, "Checkpoints"). */
  readonly checkpoints: {
    /** Ed25519 private key as PKCS#8 PEM (CONSENT_LOG_SIGNING_KEY); takes precedence over the file. */
    readonly signingKey: string | undefined;
    /** PEM file of the key; generated (mode 0600) on first start when absent. @default ./var/consent-log-signing-key.pem */
    readonly signingKeyFile: string;
    /** A domain whose chain head moved is signed again after this many seconds. @default 3600 */
    readonly intervalSeconds: number;
  };
  readonly scan: {
    /** Pages the scanner visits per scan, breadth first. @default 10 */
    readonly maxPages: number;
    /** Time limit of one scan in milliseconds. @default 30000 */
    readonly timeoutMs: number;
    /** Scans running at once. @default 2 */
    readonly concurrency: number;
    /** Allow targets on loopback/private networks (tests, intranets). @default false */
    readonly allowPrivateNetworks: boolean;
    /** Chromium executable; unset → looked up at the usual places. */
    readonly chromiumPath: string | undefined;
    /**
     * The account Chromium runs as when Placet runs as root, so that its sandbox can work; empty: none
     * (Chromium then runs as root without its sandbox, with a logged warning). @default nobody
     */
    readonly chromiumUser: string | undefined;
    /** Refuse to run Chromium without its sandbox (scans then crawl over HTTP only). @default false */
    readonly requireSandbox: boolean;
  };
  /** Native HTTPS: PEM certificate (chain) and key files, re-read on SIGHUP and when they change. Unset → HTTP. */
  readonly tls: { readonly certFile: string; readonly keyFile: string } | undefined;
  /** `Strict-Transport-Security` max-age on answers served over HTTPS; 0 sends none. @default 31536000 */
  readonly hstsMaxAgeSeconds: number;
  /** Timeouts and limits of the HTTP server (README "Timeouts and limits"). */
  readonly connections: {
    /** Time to receive a whole request (headers and body); slower ones get 408 and are closed. @default 30000 */
    readonly requestTimeoutMs: number;
    /** Time to receive the request headers. @default 10000 */
    readonly headersTimeoutMs: number;
    /** How long an idle keep-alive connection stays open. @default 5000 */
    readonly keepAliveTimeoutMs: number;
    /** Requests served on one keep-alive connection before it is closed. @default 1000 */
    readonly maxRequestsPerSocket: number;
    /** Open connections at once; more are dropped. `undefined` → the open-file limit less 128 (src/http-server.ts). */
    readonly maxConnections: number | undefined;
  };
  /** Failed Hosting API key attempts allowed per client IP and minute (per process) before 429. @default 10 */
  readonly hostingAuthFailuresPerMinute: number;
  /** Bearer token that unlocks `GET /metrics`; unset → no /metrics route at all. */
  readonly metricsToken: string | undefined;
  readonly webhooks: {
    /** Allow http:// and loopback/private endpoints (tests, intranets only). @default false */
    readonly allowPrivateNetworks: boolean;
    /** How often each process looks for new decisions and due deliveries, in ms. @default 1000 */
    readonly pollIntervalMs: number;
    /** Delay before the first retry, doubled on every further one (capped at one hour), in ms. @default 10000 */
    readonly retryBaseMs: number;
    /** Attempts before a delivery is given up (`failed`). @default 12 */
    readonly maxAttempts: number;
    /** Time limit of one delivery request, in ms. @default 10000 */
    readonly timeoutMs: number;
    /** Consent records one delivery carries at most (consecutive records of one domain's chain). @default 250 */
    readonly batchMaxEvents: number;
    /** Body size of one delivery at most, in bytes; a single larger record still goes alone. @default 262144 */
    readonly batchMaxBytes: number;
    /**
     * Records this process's webhook feed keeps in memory after their commit, all domains together, so it need
     * not read them back (docs/webhooks.md, "Delivery"); 0 switches that off. @default 2000
     */
    readonly tapMaxRecords: number;
  };
  readonly quotas: {
    /** Visitor addresses and CIDR ranges whose widget calls are not counted. @default [] */
    readonly excludeIps: readonly string[];
    /** Case-insensitive user-agent substrings whose widget calls are not counted. @default bot,crawler,spider,slurp */
    readonly excludeUserAgents: readonly string[];
    /** Percentages of a client's monthly quota at which a notice goes out. @default [80, 100] */
    readonly noticeThresholds: readonly number[];
    /** Where quota notices are e-mailed (the agency); empty → no e-mail. @default [] */
    readonly noticeEmailTo: readonly string[];
  };
  /** Outgoing mail (quota notices); unset → no e-mail is sent. */
  readonly smtp: { readonly url: string; readonly from: string } | undefined;
  /** IAB TCF v2.2 (docs/tcf.md). */
  readonly tcf: TcfConfig;
  /** Preview images of blocked YouTube and Vimeo frames (docs/widget.md, "Video previews"). */
  readonly videoPreviews: VideoPreviewConfig;
}

export interface VideoPreviewConfig {
  /** Master switch; false answers every preview request with 404 and fetches nothing. @default true */
  readonly enabled: boolean;
  /** YouTube's image address, `{id}` replaced by the video id. @default https://i.ytimg.com/vi/{id}/hqdefault.jpg */
  readonly youtubeUrl: string;
  /** Vimeo's oEmbed address, `{id}` replaced by the video id. @default https://vimeo.com/api/oembed.json?url=https%3A%2F%2Fvimeo.com%2F{id}&width=640 */
  readonly vimeoOembedUrl: string;
  /** Hosts an oEmbed `thumbnail_url` may point to (the answer is not trusted to name any other). @default [i.vimeocdn.com] */
  readonly vimeoThumbnailHosts: readonly string[];
  /** Allow http:// and loopback/private upstream addresses (tests, intranets only). @default false */
  readonly allowPrivateNetworks: boolean;
  /** How long a fetched image is served from the cache, in hours (the reference keeps 8 days). @default 192 */
  readonly cacheHours: number;
  /** How long "no image" (unknown video, host down, too large) is remembered, in minutes. @default 15 */
  readonly negativeCacheMinutes: number;
  /** Cached previews kept at most (the oldest are evicted). @default 5000 */
  readonly maxEntries: number;
  /** Total bytes of cached images kept at most, in megabytes (the oldest are evicted). @default 256 */
  readonly maxCacheMegabytes: number;
  /** Largest image accepted from the video host, in bytes. @default 1048576 */
  readonly maxImageBytes: number;
  /** Time limit of one upstream request, in ms. @default 5000 */
  readonly timeoutMs: number;
  /** Cache misses (upstream fetches) per source address (IPv6: per /64) and minute; 0 = off. @default 30 */
  readonly missesPerAddressPerMinute: number;
  /** Upstream fetches running at once per process; a miss beyond them gets 429. @default 16 */
  readonly maxConcurrentFetches: number;
}

export interface TcfConfig {
  /**
   * The CMP id the IAB assigned to the agency running this instance (TCF_CMP_ID). Unset → domains with
   * tcfEnabled get no TCF signal (a console warning says why): a TC string needs a registered CMP id.
   */
  readonly cmpId: number | undefined;
  /** This CMP's version, written into every TC string; raise it when the TCF UI changes. @default 1 */
  readonly cmpVersion: number;
  /** Global Vendor List; translations are fetched next to it (purposes-de.json …). @default the IAB's v3 list */
  readonly gvlUrl: string;
  /** How often the GVL is fetched again, in hours; 0 = only at start when nothing is cached. @default 24 */
  readonly gvlRefreshHours: number;
  /** Where the fetched GVL files are cached on disk. @default ./var/tcf */
  readonly gvlCacheDir: string;
}

export interface Limits {
  /** Master switch; false turns every limit below off (load tests). @default true */
  readonly enabled: boolean;
  /** Source addresses or CIDR ranges exempt from the per-address limits (monitoring, load generators). */
  readonly exempt: readonly string[];
  /** POST /public/consent per source address (IPv6: per /64) and minute. 0 = off. @default 30 */
  readonly consentPerAddressPerMinute: number;
  /** POST /public/consent per ucid and hour. 0 = off. @default 10 */
  readonly consentPerUcidPerHour: number;
  /** POST /public/consent per domain and minute. 0 = off. @default 3000 */
  readonly consentPerDomainPerMinute: number;
  /** Consents waiting for the group commit; more → 429. @default 20000 */
  readonly consentQueueMax: number;
  /** GET /public/app.js per source address (IPv6: per /64) and minute; over it, blocked mode, not counted. 0 = off. @default 120 */
  readonly widgetPerAddressPerMinute: number;
  /** A repeat load from the same address and page within this many seconds counts once. 0 = count all. @default 60 */
  readonly widgetCountWindowSeconds: number;
  /** Domains autoCreateDomains may create per client and hour. @default 5 */
  readonly autoCreateDomainsPerHour: number;
}

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string };

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = read('HOST') ?? '0.0.0.0';
  const database = parseDatabaseUrl(read('DATABASE_URL'), cwd, problems);

  const hostingApiKey = read('HOSTING_API_KEY');
  if (hostingApiKey !== undefined) {
    const weakness = keyWeakness(hostingApiKey);
    if (weakness !== undefined) {
      problems.push(`HOSTING_API_KEY ${weakness}; generate one with \`openssl rand -hex 32\` (or unset it to have Placet generate one)`);
    }
  }

  let publicUrl = read('PUBLIC_URL') ?? `http://localhost:${port}`;
  try {
    const url = new URL(publicUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    publicUrl = publicUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_URL must be an absolute http(s) URL (got "${publicUrl}")`);
  }

  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
  const rawLevel = read('LOG_LEVEL') ?? 'info';
  const logLevel = levels.find((l) => l === rawLevel);
  if (logLevel === undefined) problems.push(`LOG_LEVEL must be one of ${levels.join(', ')}`);

  const bodyLimitBytes = int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024);
  const passwordHashCost = int('PASSWORD_HASH_COST', 11, 4, 15);
  const counterFlushIntervalMs = int('COUNTER_FLUSH_INTERVAL_MS', 5000, 100, 600_000);
  const foundReportDelayMs = int('FOUND_REPORT_DELAY_MS', 3000, 0, 60_000);
  const foundRescanHours = int('FOUND_RESCAN_HOURS', 0, 0, 24 * 365);
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const trustProxy = bool('TRUST_PROXY', false);
  const countryHeader = read('COUNTRY_HEADER')?.toLowerCase();
  if (countryHeader !== undefined && !/^[a-z0-9-]{1,64}$/.test(countryHeader)) {
    problems.push(`COUNTRY_HEADER must be a header name such as cf-ipcountry (got "${countryHeader}")`);
  }
  // Set but empty hides the line (read() would take '' for unset).
  const footerText = env.WIDGET_FOOTER_TEXT !== undefined ? env.WIDGET_FOOTER_TEXT.trim() : 'Placet';
  if (footerText.length > 60) problems.push(`WIDGET_FOOTER_TEXT must be at most 60 characters (got ${footerText.length})`);
  const footerUrl = read('WIDGET_FOOTER_URL') ?? '';
  if (footerUrl !== '' && !/^https:\/\/[^\s"'<>]+$/.test(footerUrl)) {
    problems.push(`WIDGET_FOOTER_URL must be an https URL (got "${footerUrl}")`);
  }
  const consentLog = {
    blockSize: int('CONSENT_LOG_BLOCK_SIZE', 100_000, 1, 10_000_000),
    retentionDays: int('CONSENT_LOG_RETENTION_DAYS', 395, 1, 36_500),
    blockMinAgeHours: int('CONSENT_LOG_BLOCK_MIN_AGE_HOURS', 24, 0, 8760),
  };
  const exempt = (read('RATE_LIMIT_EXEMPT') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const entry of exempt) {
    if (!isAddressOrRange(entry)) problems.push(`RATE_LIMIT_EXEMPT entries must be IP addresses or CIDR ranges (got "${entry}")`);
  }
  const limits: Limits = {
    enabled: bool('RATE_LIMITS', true),
    exempt,
    consentPerAddressPerMinute: int('CONSENT_RATE_PER_ADDRESS', 30, 0, 10_000_000),
    consentPerUcidPerHour: int('CONSENT_RATE_PER_UCID', 10, 0, 10_000_000),
    consentPerDomainPerMinute: int('CONSENT_RATE_PER_DOMAIN', 3000, 0, 100_000_000),
    consentQueueMax: int('CONSENT_QUEUE_MAX', 20_000, 100, 10_000_000),
    widgetPerAddressPerMinute: int('WIDGET_RATE_PER_ADDRESS', 120, 0, 10_000_000),
    widgetCountWindowSeconds: int('WIDGET_COUNT_WINDOW_SECONDS', 60, 0, 86_400),
    autoCreateDomainsPerHour: int('AUTO_CREATE_DOMAINS_PER_HOUR', 5, 0, 10_000),
  };
  const handover = {
    tokenTtlSeconds: int('HANDOVER_TOKEN_TTL_SECONDS', 120, 10, 600),
    ratePerMinute: int('HANDOVER_RATE_PER_MINUTE', 30, 0, 100_000),
    bindAddress: bool('HANDOVER_BIND_ADDRESS', true),
  };
  const tokenSecret = read('CONSENT_TOKEN_SECRET');
  if (tokenSecret !== undefined && tokenSecret.length < 32) {
    problems.push('CONSENT_TOKEN_SECRET must be at least 32 characters long (or unset to generate one)');
  }
  const consentToken = {
    secret: tokenSecret,
    ttlHours: int('CONSENT_TOKEN_TTL_HOURS', 24, 2, 24 * 31),
    required: bool('CONSENT_TOKEN_REQUIRED', true),
  };
  const signingKey = read('CONSENT_LOG_SIGNING_KEY')?.replace(/\\n/g, '\n');
  if (signingKey !== undefined && !signingKey.includes('-----BEGIN PRIVATE KEY-----')) {
    problems.push('CONSENT_LOG_SIGNING_KEY must be an Ed25519 private key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)');
  }
  const checkpoints = {
    signingKey,
    signingKeyFile: path.resolve(cwd, read('CONSENT_LOG_SIGNING_KEY_FILE') ?? path.join('var', 'consent-log-signing-key.pem')),
    intervalSeconds: int('CONSENT_LOG_CHECKPOINT_INTERVAL_SECONDS', 3600, 10, 86_400 * 31),
  };
  const scan = {
    maxPages: int('SCAN_MAX_PAGES', 10, 1, 200),
    timeoutMs: int('SCAN_TIMEOUT_MS', 30_000, 1000, 600_000),
    concurrency: int('SCAN_CONCURRENCY', 2, 1, 16),
    allowPrivateNetworks: bool('SCAN_ALLOW_PRIVATE_NETWORKS', false),
    chromiumPath: read('CHROMIUM_PATH'),
    // Set but empty means no account: Chromium then runs as Placet's own user.
    chromiumUser: env.SCAN_CHROMIUM_USER === undefined ? 'nobody' : read('SCAN_CHROMIUM_USER'),
    requireSandbox: bool('SCAN_REQUIRE_SANDBOX', false),
  };

  const certFile = read('TLS_CERT_FILE');
  const keyFile = read('TLS_KEY_FILE');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together (or neither, for plain HTTP)');
  }
  const tls = certFile !== undefined && keyFile !== undefined
    ? { certFile: path.resolve(cwd, certFile), keyFile: path.resolve(cwd, keyFile) }
    : undefined;
  const hstsMaxAgeSeconds = int('HSTS_MAX_AGE', 31_536_000, 0, 63_072_000);
  const connections = {
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    headersTimeoutMs: int('HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000),
    keepAliveTimeoutMs: int('KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 600_000),
    maxRequestsPerSocket: int('MAX_REQUESTS_PER_SOCKET', 1000, 0, 1_000_000),
    maxConnections: read('MAX_CONNECTIONS') === undefined ? undefined : int('MAX_CONNECTIONS', 1000, 1, 1_000_000),
  };
  const hostingAuthFailuresPerMinute = int('HOSTING_AUTH_FAILURES_PER_MINUTE', 10, 1, 100_000);
  const metricsToken = read('METRICS_TOKEN');
  if (metricsToken !== undefined && keyWeakness(metricsToken) !== undefined) {
    problems.push(`METRICS_TOKEN ${keyWeakness(metricsToken)}; generate one with \`openssl rand -hex 32\``);
  }
  const webhooks = {
    allowPrivateNetworks: bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    pollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 1000, 10, 600_000),
    retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 10_000, 10, 3_600_000),
    maxAttempts: int('WEBHOOK_MAX_ATTEMPTS', 12, 1, 100),
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    batchMaxEvents: int('WEBHOOK_BATCH_MAX_EVENTS', 250, 1, 500),
    batchMaxBytes: int('WEBHOOK_BATCH_MAX_BYTES', 262_144, 4096, 4_194_304),
    tapMaxRecords: int('WEBHOOK_TAP_MAX_RECORDS', 2000, 0, 100_000),
  };

  const list = (name: string, fallback: string[]): string[] => {
    const raw = read(name);
    return raw === undefined ? fallback : raw.split(',').map((v) => v.trim()).filter((v) => v !== '');
  };
  const excludeIps = list('QUOTA_EXCLUDE_IPS', []);
  for (const range of excludeIps) if (!cidrPattern(range)) problems.push(`QUOTA_EXCLUDE_IPS: "${range}" is not an IP address or CIDR range`);
  const thresholds = list('QUOTA_NOTICE_THRESHOLDS', ['80', '100']);
  const noticeThresholds = thresholds.map(Number).filter((t) => Number.isInteger(t) && t >= 1 && t <= 1000);
  if (noticeThresholds.length !== thresholds.length) problems.push('QUOTA_NOTICE_THRESHOLDS must be percentages from 1 to 1000, comma-separated');
  const quotas = {
    excludeIps,
    // `none` counts every user agent (an empty value means the default, as for every setting).
    excludeUserAgents: list('QUOTA_EXCLUDE_USER_AGENTS', ['bot', 'crawler', 'spider', 'slurp'])
      .map((u) => u.toLowerCase())
      .filter((u) => u !== 'none'),
    noticeThresholds: [...new Set(noticeThresholds)].sort((a, b) => a - b),
    noticeEmailTo: list('QUOTA_NOTICE_EMAIL_TO', []),
  };
  const smtpUrl = read('SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must start with smtp:// or smtps://');
  const smtp = smtpUrl === undefined ? undefined : { url: smtpUrl, from: read('SMTP_FROM') ?? 'placet@localhost' };

  const gvlUrl = read('TCF_GVL_URL') ?? 'https://vendor-list.consensu.org/v3/vendor-list.json';
  if (!/^https?:\/\//.test(gvlUrl)) problems.push(`TCF_GVL_URL must be an absolute http(s) URL (got "${gvlUrl}")`);
  const tcf: TcfConfig = {
    cmpId: read('TCF_CMP_ID') === undefined ? undefined : int('TCF_CMP_ID', 2, 2, 4095),
    cmpVersion: int('TCF_CMP_VERSION', 1, 1, 4095),
    gvlUrl,
    gvlRefreshHours: int('TCF_GVL_REFRESH_HOURS', 24, 0, 24 * 31),
    gvlCacheDir: path.resolve(cwd, read('TCF_GVL_CACHE_DIR') ?? path.join('var', 'tcf')),
  };

  const youtubeUrl = read('VIDEO_PREVIEW_YOUTUBE_URL') ?? 'https://i.ytimg.com/vi/{id}/hqdefault.jpg';
  const vimeoOembedUrl = read('VIDEO_PREVIEW_VIMEO_OEMBED_URL') ?? 'https://vimeo.com/api/oembed.json?url=https%3A%2F%2Fvimeo.com%2F{id}&width=640';
  for (const [name, value] of [['VIDEO_PREVIEW_YOUTUBE_URL', youtubeUrl], ['VIDEO_PREVIEW_VIMEO_OEMBED_URL', vimeoOembedUrl]] as const) {
    if (!/^https?:\/\/[^/]+\/.*\{id\}/.test(value)) problems.push(`${name} must be an absolute http(s) URL containing {id} (got "${value}")`);
  }
  const videoPreviews: VideoPreviewConfig = {
    enabled: bool('VIDEO_PREVIEWS', true),
    youtubeUrl,
    vimeoOembedUrl,
    vimeoThumbnailHosts: Object.freeze(list('VIDEO_PREVIEW_VIMEO_THUMBNAIL_HOSTS', ['i.vimeocdn.com']).map((h) => h.toLowerCase())),
    allowPrivateNetworks: bool('VIDEO_PREVIEW_ALLOW_PRIVATE_NETWORKS', false),
    cacheHours: int('VIDEO_PREVIEW_CACHE_HOURS', 192, 1, 24 * 365),
    negativeCacheMinutes: int('VIDEO_PREVIEW_NEGATIVE_CACHE_MINUTES', 15, 1, 24 * 60),
    maxEntries: int('VIDEO_PREVIEW_MAX_ENTRIES', 5000, 10, 1_000_000),
    maxCacheMegabytes: int('VIDEO_PREVIEW_MAX_CACHE_MB', 256, 1, 100_000),
    maxImageBytes: int('VIDEO_PREVIEW_MAX_IMAGE_BYTES', 1_048_576, 1024, 10_485_760),
    timeoutMs: int('VIDEO_PREVIEW_TIMEOUT_MS', 5000, 100, 60_000),
    missesPerAddressPerMinute: int('VIDEO_PREVIEW_MISSES_PER_ADDRESS', 30, 0, 1_000_000),
    maxConcurrentFetches: int('VIDEO_PREVIEW_MAX_CONCURRENT_FETCHES', 16, 1, 1000),
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    database,
    hostingApiKey,
    publicUrl,
    logLevel: logLevel ?? 'info',
    bodyLimitBytes,
    passwordHashCost,
    counterFlushIntervalMs,
    foundReportDelayMs,
    foundRescanHours,
    trustProxy,
    countryHeader,
    widgetFooter: Object.freeze({ text: footerText, url: footerUrl }),
    consentLog: Object.freeze(consentLog),
    limits: Object.freeze({ ...limits, exempt: Object.freeze(limits.exempt) }),
    handover: Object.freeze(handover),
    consentToken: Object.freeze(consentToken),
    checkpoints: Object.freeze(checkpoints),
    scan: Object.freeze(scan),
    tls: tls && Object.freeze(tls),
    hstsMaxAgeSeconds,
    connections: Object.freeze(connections),
    hostingAuthFailuresPerMinute,
    metricsToken,
    webhooks: Object.freeze(webhooks),
    quotas: Object.freeze(quotas),
    smtp: smtp && Object.freeze(smtp),
    tcf: Object.freeze(tcf),
    videoPreviews: Object.freeze(videoPreviews),
  });
}

function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Why a configured secret is too easy to guess, or `undefined` when it is fine: at least 24 characters, at
 * least 3 bits of (empirical Shannon) entropy per character and at least 96 bits in all, and not mostly a
 * run such as `abcdef…` or `aaaa…`. A random hex key of 32 characters has about 4 bits per character.
 */
export function keyWeakness(key: string): string | undefined {
  if (key.length < 24) return 'must be at least 24 characters long';
  const counts = new Map<string, number>();
  for (const ch of key) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / key.length) * Math.log2(n / key.length);
  if (perChar < 3 || perChar * key.length < 96) return 'is too predictable (too few different characters)';
  let steps = 0;
  for (let i = 1; i < key.length; i++) {
    if (Math.abs(key.charCodeAt(i) - key.charCodeAt(i - 1)) <= 1) steps++;
  }
  if (steps * 2 >= key.length) return 'is too predictable (mostly runs such as abcd or aaaa)';
  return undefined;
}

/** An IPv4/IPv6 address, optionally with a /prefix. */
function cidrPattern(value: string): boolean {
  const [address, prefix, extra] = value.split('/');
  const family = net.isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

function parseDatabaseUrl(raw: string | undefined, cwd: string, problems: string[]): DatabaseConfig {
  if (raw === undefined) return { kind: 'sqlite', file: defaultSqliteFile(cwd) };
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') problems.push('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/placet.sqlite');
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(cwd, file) };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) return { kind: 'postgres', url: raw };
  problems.push('DATABASE_URL must start with sqlite: or postgres:// (or be unset for ./data/placet.sqlite)');
  return { kind: 'sqlite', file: ':memory:' };
}

/**
 * `./var/placet.sqlite`: apart from the shipped data in `./data` (presets.json), so that a volume mounted
 * on the database folder cannot hide it. Installs that already have `./data/placet.sqlite` keep using it.
 */
function defaultSqliteFile(cwd: string): string {
  const legacy = path.resolve(cwd, 'data', 'placet.sqlite');
  return fs.existsSync(legacy) ? legacy : path.resolve(cwd, 'var', 'placet.sqlite');
}

/** Config for tests and scripts: defaults plus overrides, without reading the environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({}, process.cwd());
  // Rate limits off: most tests send many requests from one address; the limit tests switch them on.
  const limits = Object.freeze({ ...base.limits, enabled: false });
  // Tests never write a key file into the working tree: one key per test process, in memory.
  const checkpoints = Object.freeze({ ...base.checkpoints, signingKey: testSigningKey() });
  // Many tests send wrong keys on purpose; the throttle has its own test with a low limit.
  return Object.freeze({
    ...base,
    logLevel: 'silent',
    passwordHashCost: 4,
    limits,
    checkpoints,
    hostingAuthFailuresPerMinute: 100_000,
    // No test reaches the internet: the GVL URL is a closed local port (TCF tests serve fixtures, test/tcf-gvl.ts),
    // no schedule, and nothing is cached into the working tree.
    tcf: Object.freeze({ ...base.tcf, gvlUrl: 'http://127.0.0.1:9/vendor-list.json', gvlRefreshHours: 0, gvlCacheDir: testGvlCacheDir() }),
    // Nor for video previews: a closed local port, which the SSRF guard refuses anyway (tests that serve
    // previews point these at a local stand-in and allow private networks).
    videoPreviews: Object.freeze({
      ...base.videoPreviews,
      youtubeUrl: 'http://127.0.0.1:9/vi/{id}/hqdefault.jpg',
      vimeoOembedUrl: 'http://127.0.0.1:9/api/oembed.json?id={id}',
    }),
    ...overrides,
  });
}

let testCacheDir: string | undefined;
function testGvlCacheDir(): string {
  testCacheDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'placet-test-gvl-'));
  return testCacheDir;
}

let testKey: string | undefined;
function testSigningKey(): string {
  testKey ??= generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return testKey;
}
