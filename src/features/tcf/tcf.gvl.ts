import fs from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import { BUILTIN_LANGUAGES } from '../locales/builtin-texts.js';
import { listGvlFiles, recordVendorsSeen, saveGvlFile, storedGvlVersion } from './tcf.repository.js';

/** The parts of a GVL v3 file Placet reads itself; the rest is passed through to the widget untouched. */
export interface GvlJson {
  gvlSpecificationVersion: number;
  vendorListVersion: number;
  tcfPolicyVersion: number;
  lastUpdated: string;
  purposes: Record<string, unknown>;
  specialPurposes: Record<string, unknown>;
  features: Record<string, unknown>;
  specialFeatures: Record<string, unknown>;
  stacks?: Record<string, unknown>;
  dataCategories?: Record<string, unknown>;
  vendors: Record<string, GvlVendor>;
}

export interface GvlVendor {
  id: number;
  name: string;
  purposes: number[];
  legIntPurposes: number[];
  specialFeatures: number[];
  deletedDate?: string;
  [key: string]: unknown;
}

/** Languages whose purpose translations are fetched: Placet's built-in ones (English is in the list itself). */
const TRANSLATED = BUILTIN_LANGUAGES.filter((l) => l !== 'en');
const FETCH_TIMEOUT_MS = 30_000;
/** How often a process looks for a list another process stored. */
const FOLLOW_MS = 60_000;

/**
 * The Global Vendor List of this instance (docs/tcf.md): fetched from TCF_GVL_URL, kept in the database
 * (so every process serves the same version) and on disk (TCF_GVL_CACHE_DIR, so an empty database
 * still starts with a list), refreshed every TCF_GVL_REFRESH_HOURS. Browsers get it from Placet only.
 */
export class GvlStore {
  private list: GvlJson | undefined;
  private readonly translations = new Map<string, Record<string, unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private follow: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly deps: Deps) {}

  get current(): GvlJson | undefined {
    return this.list;
  }

  languages(): string[] {
    return ['en', ...[...this.translations.keys()].sort()];
  }

  translation(language: string): Record<string, unknown> | undefined {
    return this.translations.get(language);
  }

  /** Loads what is stored; fetches in the background when nothing is, then on the schedule. */
  async start(): Promise<void> {
    await this.load();
    if (!this.list) await this.loadDiskCache();
    const hours = this.deps.config.tcf.gvlRefreshHours;
    // Without a CMP id the instance sends no TCF signal (docs/tcf.md), so it fetches nothing from the IAB until one
    // is configured (a Placet without TCF would otherwise warn about an unreachable list on every start).
    const fetching = this.deps.config.tcf.cmpId !== undefined;
    if (!this.list && fetching) void this.refresh().catch(() => undefined);
    if (hours > 0 && fetching) {
      this.timer = setInterval(() => void this.refresh().catch(() => undefined), hours * 3_600_000);
      this.timer.unref();
    }
    // Another process may have fetched a newer list (a refresh through the Hosting API reaches one process).
    this.follow = setInterval(() => void this.loadIfNewer().catch(() => undefined), FOLLOW_MS);
    this.follow.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    clearInterval(this.follow);
  }

  private async loadIfNewer(): Promise<void> {
    const version = await storedGvlVersion(this.deps.db);
    if (version !== undefined && version > (this.list?.vendorListVersion ?? 0)) await this.load();
  }

  /** Fetches the list and its translations; a newer version replaces the stored one. Concurrent calls share one fetch. */
  refresh(): Promise<void> {
    this.refreshing ??= this.fetchAll().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async fetchAll(): Promise<void> {
    const { config, db, log } = this.deps;
    const url = config.tcf.gvlUrl;
    let list: GvlJson;
    let body: string;
    try {
      body = await this.get(url);
      list = parseGvl(body);
    } catch (err) {
      log.warn({ url, err: String(err) }, 'TCF: fetching the Global Vendor List failed; the stored one stays in use');
      throw err;
    }
    const now = isoNow(this.deps.clock);
    if (!this.list || list.vendorListVersion >= this.list.vendorListVersion) {
      await saveGvlFile(db, 'vendor-list', list.vendorListVersion, body, now);
      await recordVendorsSeen(db, Object.values(list.vendors).map((v) => v.id), list.vendorListVersion);
      await this.writeDiskCache('vendor-list', body);
    }
    for (const language of TRANSLATED) {
      const name = `purposes-${language}`;
      try {
        const text = await this.get(new URL(`${name}.json`, url).toString());
        const parsed = JSON.parse(text) as { vendorListVersion?: unknown; purposes?: unknown };
        if (typeof parsed.purposes !== 'object') throw new Error('no purposes');
        await saveGvlFile(db, name, Number(parsed.vendorListVersion) || list.vendorListVersion, text, now);
        await this.writeDiskCache(name, text);
      } catch (err) {
        log.debug({ language, err: String(err) }, 'TCF: no purpose translation');
      }
    }
    await this.load();
    log.info({ version: this.list?.vendorListVersion }, 'TCF: Global Vendor List refreshed');
  }

  private async get(url: string): Promise<string> {
    const fetchFn = this.deps.fetch ?? fetch;
    const res = await fetchFn(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.text();
  }

  /** Reads the stored files; the newest stored list wins (another process may have fetched it). */
  async load(): Promise<void> {
    for (const row of await listGvlFiles(this.deps.db)) {
      try {
        if (row.name === 'vendor-list') {
          const list = parseGvl(row.body);
          if (!this.list || list.vendorListVersion >= this.list.vendorListVersion) this.list = list;
        } else this.translations.set(row.name.slice('purposes-'.length), JSON.parse(row.body) as Record<string, unknown>);
      } catch (err) {
        this.deps.log.warn({ name: row.name, err: String(err) }, 'TCF: a stored GVL file is unreadable');
      }
    }
  }

  private async loadDiskCache(): Promise<void> {
    const dir = this.deps.config.tcf.gvlCacheDir;
    try {
      const body = await fs.readFile(path.join(dir, 'vendor-list.json'), 'utf8');
      const list = parseGvl(body);
      const now = isoNow(this.deps.clock);
      await saveGvlFile(this.deps.db, 'vendor-list', list.vendorListVersion, body, now);
      await recordVendorsSeen(this.deps.db, Object.values(list.vendors).map((v) => v.id), list.vendorListVersion);
      for (const language of TRANSLATED) {
        const text = await fs.readFile(path.join(dir, `purposes-${language}.json`), 'utf8').catch(() => undefined);
        if (text !== undefined) await saveGvlFile(this.deps.db, `purposes-${language}`, list.vendorListVersion, text, now);
      }
      await this.load();
    } catch {
      // No cache yet (first start): the background fetch fills it.
    }
  }

  private async writeDiskCache(name: string, body: string): Promise<void> {
    const dir = this.deps.config.tcf.gvlCacheDir;
    try {
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${name}.json`);
      await fs.writeFile(`${file}.tmp`, body);
      await fs.rename(`${file}.tmp`, file);
    } catch (err) {
      this.deps.log.warn({ dir, err: String(err) }, 'TCF: the GVL disk cache cannot be written');
    }
  }
}

/** Parses and checks the shape Placet relies on; throws on anything else (an error page, a v2 list). */
export function parseGvl(body: string): GvlJson {
  const json = JSON.parse(body) as Partial<GvlJson>;
  const version = json.vendorListVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw new Error('no vendorListVersion');
  if (json.gvlSpecificationVersion !== 3) throw new Error(`gvlSpecificationVersion ${String(json.gvlSpecificationVersion)}, expected 3`);
  for (const key of ['purposes', 'specialPurposes', 'features', 'specialFeatures', 'vendors'] as const) {
    if (typeof json[key] !== 'object' || json[key] === null) throw new Error(`no ${key}`);
  }
  for (const v of Object.values(json.vendors!)) {
    if (typeof v.id !== 'number' || typeof v.name !== 'string' || !Array.isArray(v.purposes)) throw new Error('malformed vendor');
  }
  return json as GvlJson;
}

const stores = new WeakMap<Deps['db'], GvlStore>();

/** One store per database handle: the widget, the TCF routes and the Hosting API share it. */
export function gvlStoreFor(deps: Deps): GvlStore {
  let found = stores.get(deps.db);
  if (!found) {
    found = new GvlStore(deps);
    stores.set(deps.db, found);
  }
  return found;
}
