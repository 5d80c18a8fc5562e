import net from 'node:net';
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
  /** Trust X-Forwarded-* from a reverse proxy (for client IPs). @default false */
  readonly trustProxy: boolean;
  /**
   * Request header (lower case) in which a trusted proxy or CDN puts the visitor's ISO country code, e.g.
   * `cf-ipcountry`; used by themes with `enableOnlyInEu`. Unset → every visitor is asked.
   */
  readonly countryHeader: string | undefined;
  readonly consentLog: {
    /** Records per data block before it is closed (archived) automatically. @default 100000 */
    readonly blockSize: number;
    /** Records older than this many days are deleted, whole blocks at a time. @default 395 */
    readonly retentionDays: number;
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
  };
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
  if (hostingApiKey !== undefined && hostingApiKey.length < 24) {
    problems.push('HOSTING_API_KEY must be at least 24 characters long (or unset to generate one)');
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
  const consentLog = {
    blockSize: int('CONSENT_LOG_BLOCK_SIZE', 100_000, 1, 10_000_000),
    retentionDays: int('CONSENT_LOG_RETENTION_DAYS', 395, 1, 36_500),
  };
  const scan = {
    maxPages: int('SCAN_MAX_PAGES', 10, 1, 200),
    timeoutMs: int('SCAN_TIMEOUT_MS', 30_000, 1000, 600_000),
    concurrency: int('SCAN_CONCURRENCY', 2, 1, 16),
    allowPrivateNetworks: bool('SCAN_ALLOW_PRIVATE_NETWORKS', false),
    chromiumPath: read('CHROMIUM_PATH'),
  };

  const webhooks = {
    allowPrivateNetworks: bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    pollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 1000, 10, 600_000),
    retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 10_000, 10, 3_600_000),
    maxAttempts: int('WEBHOOK_MAX_ATTEMPTS', 12, 1, 100),
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
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
    trustProxy,
    countryHeader,
    consentLog: Object.freeze(consentLog),
    scan: Object.freeze(scan),
    webhooks: Object.freeze(webhooks),
    quotas: Object.freeze(quotas),
    smtp: smtp && Object.freeze(smtp),
  });
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
  if (raw === undefined) return { kind: 'sqlite', file: path.resolve(cwd, 'data', 'placet.sqlite') };
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') problems.push('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/placet.sqlite');
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(cwd, file) };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) return { kind: 'postgres', url: raw };
  problems.push('DATABASE_URL must start with sqlite: or postgres:// (or be unset for ./data/placet.sqlite)');
  return { kind: 'sqlite', file: ':memory:' };
}

/** Config for tests and scripts: defaults plus overrides, without reading the environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return Object.freeze({ ...loadConfig({}, process.cwd()), logLevel: 'silent', passwordHashCost: 4, ...overrides });
}
