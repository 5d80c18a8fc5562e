import { Type, type Static } from 'typebox';
import { NonEmptyText, Nullable, StringEnum } from '../../schemas/common.js';

export const MAX_ONBOARDING_ITEMS = 500;

const Translations = Type.Record(Type.String(), Type.Object({ name: Type.String(), description: Type.String() }), {
  description: 'keyed by locale name: en_US and de_DE always, more when the catalogue has them',
});

export const AvailablePresetSchema = Type.Object({
  id: Type.Integer({ description: 'preset id, for POST …/onboarding/presets' }),
  name: Type.String(),
  purpose: Type.String({ description: 'purpose id' }),
  vendor: Type.String(),
  translations: Translations,
  matchedBy: Type.Array(
    Type.Object({
      type: StringEnum(['cookie', 'localStorage', 'sessionStorage', 'script', 'iframe'] as const),
      value: Type.String({ description: 'the name or URL seen (`inline` for inline script code)' }),
      pattern: Type.String({ description: 'the catalogue asset name or marker that matched it' }),
    }),
    { description: 'extra: why the preset is offered' },
  ),
});

export const ScanResultSchema = Type.Object({
  address: Type.Object(
    {
      company: Nullable(Type.String()),
      street: Nullable(Type.String()),
      zipCode: Nullable(Type.String()),
      city: Nullable(Type.String()),
    },
    { description: 'read from the imprint page' },
  ),
  imprintUrl: Nullable(Type.String()),
  privacyPolicyUrl: Nullable(Type.String()),
  availablePresets: Type.Array(AvailablePresetSchema),
  storage: Type.Object({
    cookies: Type.Array(
      Type.Object({
        name: Type.String(),
        domain: Type.String({ description: '.example.com with a Domain attribute, the host for host-only cookies' }),
        path: Type.String(),
        thirdParty: Type.Boolean({ description: 'extra: set by or for another site' }),
      }),
    ),
    localStorage: Type.Array(Type.Object({ name: Type.String(), origin: Type.String({ description: 'extra' }) })),
    sessionStorage: Type.Array(Type.Object({ name: Type.String(), origin: Type.String({ description: 'extra' }) })),
  }),
  mode: StringEnum(['browser', 'http'] as const, {
    description: 'extra: browser = headless Chromium; http = fallback without a browser (no script-set storage)',
  }),
  url: Type.String({ description: 'extra: where the scan started' }),
  pagesScanned: Type.Array(Type.String(), { description: 'extra' }),
  scripts: Type.Array(Type.String(), { description: 'extra: URLs of third-party scripts' }),
  iframes: Type.Array(Type.String(), { description: 'extra: URLs of third-party iframes' }),
  blockedRequests: Type.Array(Type.String(), {
    description: 'extra: requests of the pages the SSRF guard refused (private or local targets)',
  }),
  warnings: Type.Array(Type.String(), { description: 'extra: what limited the scan' }),
  durationMs: Type.Integer({ description: 'extra' }),
});
export type ScanResult = Static<typeof ScanResultSchema>;

export const PresetImportBody = Type.Array(
  Type.Object(
    {
      id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'from availablePresets[].id' }),
      active: Type.Optional(Type.Boolean({ description: 'default false' })),
    },
    { additionalProperties: false },
  ),
  { maxItems: MAX_ONBOARDING_ITEMS },
);
export type PresetImport = Static<typeof PresetImportBody>;

export const PresetResultSchema = Type.Array(
  Type.Object({
    presetId: Type.Integer(),
    embeddingId: Type.String(),
    created: Type.Boolean({ description: 'extra: false when the preset was imported before and that embedding is returned' }),
  }),
);
export type PresetResult = Static<typeof PresetResultSchema>;

export const ONBOARDING_STORAGE_TYPES = ['cookie', 'localStorage', 'sessionStorage'] as const;

export const CookieListBody = Type.Array(
  Type.Object(
    {
      name: NonEmptyText(200, { description: 'as in the browser; * is a wildcard' }),
      storageType: StringEnum(ONBOARDING_STORAGE_TYPES),
    },
    { additionalProperties: false },
  ),
  { maxItems: MAX_ONBOARDING_ITEMS },
);
export type CookieList = Static<typeof CookieListBody>;

const CookieRef = Type.Object({ name: Type.String(), storageType: Type.String() });

export const CookieEmbeddingsSchema = Type.Array(
  Type.Object({
    embeddingId: Type.String(),
    name: Type.String(),
    purpose: Type.String(),
    presetId: Nullable(Type.Integer({ description: 'null for the embedding of unrecognised items' })),
    created: Type.Boolean({ description: 'false: an existing embedding received new assets' }),
    cookies: Type.Array(CookieRef, { description: 'the items of the request this embedding accounts for' }),
    addedAssets: Type.Array(CookieRef, { description: 'assets made from unrecognised items of the request' }),
  }),
  { description: 'the embeddings created or changed; items already covered by an embedding change nothing' },
);
export type CookieEmbeddings = Static<typeof CookieEmbeddingsSchema>;

const AuditStorage = Type.Array(Type.Object({ name: Type.String(), origin: Type.String() }));
const AuditObservationSchema = Nullable(
  Type.Object({
    requests: Type.Array(
      Type.Object({
        url: Type.String(),
        resourceType: Type.String({ description: 'document (an iframe), script, xhr, fetch, image, ping, …' }),
        frame: Type.Optional(Type.String({ description: 'the iframe that made the request, when not the page itself' })),
        initiator: Type.Optional(Type.String({
          description: 'for a fetch, XHR, beacon or other request a script made by code: the address of that script (Chromium reports an image a script asks for as the document\'s, so images have none)',
        })),
      }),
      { description: 'third-party requests (not the site, not Placet)' },
    ),
    refusedByPolicy: Type.Array(
      Type.Object({
        url: Type.String(),
        resourceType: Type.String(),
        frame: Type.Optional(Type.String()),
      }),
      {
        description:
          'third-party requests the page\'s Content-Security-Policy refused (strict mode): nothing left the browser; ' +
          'after "accept all" each is also a warning, as the site cannot load it whatever the visitor decides',
      },
    ),
    cookies: Type.Array(Type.Object({ name: Type.String(), domain: Type.String(), path: Type.String() })),
    localStorage: AuditStorage,
    sessionStorage: AuditStorage,
  }, { description: 'what the page did in this state; null when the state was not audited on this page' }),
);
const Ref = Nullable(Type.Object({ id: Type.String(), name: Type.String() }));

export const AuditViolationSchema = Type.Object({
  page: Type.String(),
  state: StringEnum(['beforeDecision', 'afterDecline', 'placetUnreachable'] as const, {
    description: 'placetUnreachable: the page loaded while the widget\'s address was refused (Placet down), where only the snippet\'s fallback keeps trackers back',
  }),
  kind: StringEnum(['request', 'cookie', 'localStorage', 'sessionStorage'] as const),
  value: Type.String({ description: 'the request URL or the cookie / storage key name' }),
  resourceType: Nullable(Type.String()),
  embedding: Ref,
  preset: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  fix: Type.String({ description: 'what to change, in words' }),
});
export type AuditViolation = Static<typeof AuditViolationSchema>;

export const AuditResultSchema = Type.Object({
  url: Type.String({ description: 'where the audit started' }),
  pagesAudited: Type.Array(Type.String()),
  widgetFound: Type.Boolean({ description: 'the banner appeared on at least one page' }),
  pages: Type.Array(
    Type.Object({
      url: Type.String(),
      widget: Type.Boolean({ description: 'the banner appeared on this page' }),
      beforeDecision: AuditObservationSchema,
      afterDecline: AuditObservationSchema,
      afterAcceptAll: AuditObservationSchema,
      placetUnreachable: AuditObservationSchema,
    }),
  ),
  violations: Type.Array(AuditViolationSchema, {
    description: 'what loaded or was written before consent, after "decline" or while Placet could not be reached, with the embedding or preset it belongs to and the fix',
  }),
  blockedRequests: Type.Array(Type.String(), { description: 'requests the SSRF guard refused' }),
  warnings: Type.Array(Type.String()),
  durationMs: Type.Integer(),
});
export type AuditResult = Static<typeof AuditResultSchema>;
