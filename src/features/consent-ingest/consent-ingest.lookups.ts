import { accountThemesFor, standardTexts } from '../account/account.service.js';
import type { Db } from '../../db/database.js';
import type { PurposeId } from '../locales/builtin-texts.js';
import { effectiveTexts, type StoredTexts } from '../locales/locale-texts.js';
import { parseStoredTexts } from '../locales/locales.service.js';
import { parseSettings } from '../domains/domains.service.js';
import { domainRevisions } from './consent-ingest.repository.js';

/** What the write path needs to know about a domain, as of one configuration revision. */
export interface DomainSnapshot {
  readonly domainId: string;
  readonly clientApiKey: string;
  /** host[:port], lower case. */
  readonly name: string;
  /** `http` or `https`: a page of the other scheme is not the domain's (reference model: "http vs https matters"). */
  readonly scheme: string;
  readonly revision: number;
  readonly legalRevision: number;
  /** Ids of the domain's themes. */
  readonly themeIds: ReadonlySet<string>;
  /** Names of the domain's active locales. */
  readonly activeLocales: ReadonlySet<string>;
  /** consentSharingDomains: further hosts the domain's configuration (and so its consent) is used on. */
  readonly sharingDomains: readonly string[];
  readonly embeddings: ReadonlyMap<string, SnapshotEmbedding>;
  /** Purpose id → name in `lang`: the domain's stored locale of exactly that name, else the built-ins. */
  purposeNames(lang: string): Readonly<Record<PurposeId, string>>;
}

export interface SnapshotEmbedding {
  readonly name: string;
  readonly purpose: string;
  readonly active: boolean;
  /** Locale name → translated name (only non-empty translations). */
  readonly translatedNames: Readonly<Record<string, string>>;
}

/**
 * Caches domain snapshots keyed by the domain's `config_revision`, which every visible change raises in
 * the same transaction (domain-scope.ts). Each batch reads the revisions of its domains in one indexed
 * query, so a rename made through any process is logged with its new name from the next batch on,
 * without a TTL. Only a changed revision reloads embeddings and locales.
 */
export class DomainSnapshotCache {
  private readonly entries = new Map<string, DomainSnapshot>();

  constructor(
    private readonly db: Db,
    private readonly maxEntries = 10_000,
  ) {}

  /** Current snapshots of the domains that exist; unknown ids are absent from the result. */
  async resolve(domainIds: readonly string[]): Promise<Map<string, DomainSnapshot>> {
    const rows = await domainRevisions(this.db, domainIds);
    const result = new Map<string, DomainSnapshot>();
    for (const row of rows) {
      let snapshot = this.entries.get(row.id);
      if (!snapshot || snapshot.revision !== row.config_revision || snapshot.name !== row.name || snapshot.clientApiKey !== row.api_key) {
        snapshot = await this.load(row.id, row.name, row.config_revision, row.api_key);
        this.remember(snapshot);
      }
      result.set(row.id, snapshot);
    }
    return result;
  }

  private remember(snapshot: DomainSnapshot): void {
    this.entries.delete(snapshot.domainId);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(snapshot.domainId, snapshot);
  }

  // The revision was read first, so what is loaded now is at least that revision: never older than its key.
  private async load(domainId: string, name: string, revision: number, clientApiKey: string): Promise<DomainSnapshot> {
    const [embeddingRows, localeRows, domainRow, themeRows, accountThemes, standard] = await Promise.all([
      this.db.selectFrom('embeddings').select(['id', 'name', 'purpose', 'active', 'data']).where('domain_id', '=', domainId).execute(),
      this.db.selectFrom('locales').select(['name', 'active', 'texts']).where('domain_id', '=', domainId).execute(),
      this.db.selectFrom('domains').select(['settings', 'legal_revision', 'scheme']).where('id', '=', domainId).executeTakeFirst(),
      this.db.selectFrom('themes').select('id').where('domain_id', '=', domainId).execute(),
      accountThemesFor(this.db, domainId),
      standardTexts(this.db),
    ]);
    const embeddings = new Map<string, SnapshotEmbedding>(
      embeddingRows.map((e) => [
        e.id,
        { name: e.name, purpose: e.purpose, active: e.active === 1, translatedNames: translatedNames(e.data) },
      ]),
    );
    const locales = new Map<string, StoredTexts>(localeRows.map((l) => [l.name, parseStoredTexts(l.texts)]));
    const purposeNames = new Map<string, Record<PurposeId, string>>();
    return {
      domainId,
      clientApiKey,
      name,
      scheme: domainRow?.scheme ?? 'https',
      revision,
      legalRevision: domainRow?.legal_revision ?? 0,
      // The account themes distributed to the domain are shown there too (docs/account.md).
      themeIds: new Set([...themeRows.map((t) => t.id), ...accountThemes.map((t) => t.id)]),
      activeLocales: new Set(localeRows.filter((l) => l.active === 1).map((l) => l.name)),
      // A change of the list raises the revision, so the snapshot's copy is as current as the rest.
      sharingDomains: domainRow ? parseSettings(domainRow.settings).consentSharingDomains : [],
      embeddings,
      purposeNames(lang) {
        let names = purposeNames.get(lang);
        if (!names) {
          names = effectiveTexts(lang, locales.get(lang), standard).purposeNames;
          if (purposeNames.size < 64) purposeNames.set(lang, names);
        }
        return names;
      },
    };
  }
}

function translatedNames(data: string): Record<string, string> {
  const parsed = JSON.parse(data) as { translations?: Record<string, { name?: unknown }> };
  const names: Record<string, string> = {};
  for (const [lang, t] of Object.entries(parsed.translations ?? {})) {
    if (typeof t?.name === 'string' && t.name !== '') names[lang] = t.name;
  }
  return names;
}
