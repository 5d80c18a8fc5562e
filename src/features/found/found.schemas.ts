import { Type, type Static } from 'typebox';
import { StringEnum } from '../../schemas/common.js';
import { FOUND_KINDS, FOUND_STATES } from './found.table.js';

/**
 * Limits of the found-items list (docs/found-items.md, "Limits"). Per domain, so no visitor (or script
 * pretending to be the widget) can grow the list past what an agency can review.
 */
export const FOUND_LIMITS = {
  /** distinct items kept per domain; past it, new items are dropped and known ones still counted */
  itemsPerDomain: 500,
  /** items in one report (the widget sends at most this many) */
  itemsPerReport: 50,
  /** bytes of one report body */
  bodyBytes: 16 * 1024,
  /** reports per address and minute (per process) */
  reportsPerAddressPerMinute: 10,
  /** reports per domain and minute (per process): a busy site reports once per visitor and day */
  reportsPerDomainPerMinute: 120,
  /** the widget reports at most once per browser, domain and this many hours */
  sampleHours: 24,
  /** length of a stored key (host + path, or a name) and of a stored page URL */
  keyLength: 300,
  urlLength: 500,
} as const;

/** POST /public/found: what the reporter chunk sends (text/plain JSON, widget/src/found/index.ts). */
export const FoundReportBody = Type.Object(
  {
    domain: Type.String({ pattern: '^[0-9a-f]{7}$' }),
    revision: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    token: Type.String({ minLength: 1, maxLength: 200 }),
    page: Type.String({ minLength: 1, maxLength: 2000, description: "the page's address; stored without query and fragment" }),
    items: Type.Array(
      Type.Object(
        {
          k: StringEnum(FOUND_KINDS),
          v: Type.String({ minLength: 1, maxLength: 1000, description: 'a script or iframe URL, or a cookie or storage name' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: FOUND_LIMITS.itemsPerReport },
    ),
  },
  { additionalProperties: false },
);
export type FoundReport = Static<typeof FoundReportBody>;

export const FoundItemSchema = Type.Object({
  id: Type.String(),
  kind: StringEnum(FOUND_KINDS, { description: 'script, iframe, cookie, localStorage or sessionStorage' }),
  key: Type.String({ description: 'script/iframe: host and path without query; otherwise the name' }),
  firstUrl: Type.String({ description: 'the page where it was first seen, without query and fragment' }),
  firstSeen: Type.String({ description: 'ISO 8601 UTC' }),
  lastSeen: Type.String({ description: 'ISO 8601 UTC' }),
  count: Type.Integer({ description: 'reports that named it (at most one per browser and day)' }),
  state: StringEnum(FOUND_STATES, { description: 'new, ignored (reviewed; under blockNewScripts an ignored script may run) or adopted' }),
});
export type FoundItem = Static<typeof FoundItemSchema>;

export const FoundListQuery = Type.Object({
  kind: Type.Optional(StringEnum(FOUND_KINDS)),
  state: Type.Optional(StringEnum(FOUND_STATES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: FOUND_LIMITS.itemsPerDomain, default: 0 })),
});

export const FoundListSchema = Type.Object({
  items: Type.Array(FoundItemSchema),
  total: Type.Integer({ description: 'items matching the filter' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

/** Only `new` and `ignored` are set by hand; `adopted` is what the adopt call sets. */
export const FoundStateBody = Type.Object({ state: StringEnum(['new', 'ignored'] as const) }, { additionalProperties: false });

export const FoundAdoptBody = Type.Object(
  { embeddingId: Type.String({ pattern: '^[0-9a-f]{7}$', description: 'the embedding of this domain that takes the item' }) },
  { additionalProperties: false },
);
