import { legalField, namedTexts } from '../../../widget/src/text-fields.js';
import type { ConsentRecord } from '../consent-log/consent-log.record.js';
import type { StoredSnapshot } from '../consent-log/consent-log.snapshots.repository.js';

/**
 * "What one visitor saw" (docs/consent-log.md): a record with the snapshot it names, read in the record's
 * language. The snapshot is the widget configuration as served (widget/src/types.ts, short keys), so this
 * is the one place that turns it back into named fields.
 */
export interface ShownDecision {
  record: ConsentRecord;
  snapshot: string | null;
  /** null for a record of format 1 (before snapshots) or a snapshot that is no longer kept. */
  shown: Shown | null;
}

export interface Shown {
  /** The locale of the snapshot the texts come from: the record's `lang`, else the widget's default locale. */
  lang: string;
  texts: Record<string, string>;
  purposes: { id: string; name: string; description: string }[];
  embeddings: ShownEmbedding[];
  /** Legal links: [link, shown in the widget (direct), open in a new tab]. */
  legalLinks: unknown;
  theme: unknown;
}

export interface ShownEmbedding {
  id: string;
  purpose: string;
  name: string;
  vendor: string;
  description: string;
  privacyPolicyUrl: string;
  whatDataIsCollected: string;
  purposeOfDataCollection: string;
  legalBasis: string;
  placeOfProcessing: string;
  assets: { name: string; storageType: string; lifetime: string; description: string }[];
}

type Texts = [string, string, string, string, string, string, string, string, string, string, string, [string, string, string][]];
interface Bundle {
  t: string[] | Record<string, string>;
  pu: Record<string, [string, string]>;
  e: Record<string, Texts>;
}
interface Visible {
  dl?: string;
  loc?: Record<string, Bundle>;
  em?: { i: string; p: string; a: [string, string][] }[];
  pu?: string[];
  lg?: [number | string, boolean, boolean][];
  th?: unknown;
}

export function shownOf(record: ConsentRecord, snapshot: StoredSnapshot | undefined): ShownDecision {
  if (!snapshot) return { record, snapshot: record.snapshot ?? null, shown: null };
  const config = JSON.parse(snapshot.config) as Visible;
  const lang = config.loc?.[record.lang] ? record.lang : (config.dl ?? record.lang);
  const bundle: Bundle = config.loc?.[lang] ?? { t: {}, pu: {}, e: {} };
  return {
    record,
    snapshot: snapshot.hash,
    shown: {
      lang,
      // Since 2026-11-28 the texts are served as an array in the order of widget/src/text-fields.ts (append only).
      texts: namedTexts(bundle.t),
      purposes: (config.pu ?? []).map((id) => ({ id, name: bundle.pu[id]?.[0] ?? '', description: bundle.pu[id]?.[1] ?? '' })),
      embeddings: (config.em ?? []).map((e) => {
        const t = bundle.e[e.i];
        const lifetimes = new Map((t?.[11] ?? []).map(([name, lifetime, description]) => [name, { lifetime, description }]));
        return {
          id: e.i,
          purpose: e.p,
          name: t?.[0] ?? '',
          vendor: t?.[1] ?? '',
          description: t?.[2] ?? '',
          privacyPolicyUrl: t?.[3] ?? '',
          whatDataIsCollected: t?.[4] ?? '',
          purposeOfDataCollection: t?.[5] ?? '',
          legalBasis: t?.[6] ?? '',
          placeOfProcessing: t?.[7] ?? '',
          assets: e.a.map(([name, storageType]) => ({ name, storageType, lifetime: lifetimes.get(name)?.lifetime ?? '', description: lifetimes.get(name)?.description ?? '' })),
        };
      }),
      legalLinks: (config.lg ?? []).map(([f, direct, blank]) => [legalField(f), direct, blank]),
      theme: config.th ?? null,
    },
  };
}
