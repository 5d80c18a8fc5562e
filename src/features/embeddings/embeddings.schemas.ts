import { Type, type Static } from 'typebox';
import {
  IntList,
  LocaleMap,
  NonEmptyText,
  Nullable,
  StringEnum,
  StringList,
  Text,
  UrlOrEmpty,
} from '../../schemas/common.js';
import { AssetSchema, CreateAssetBody, MAX_ASSETS_PER_EMBEDDING } from '../assets/assets.schemas.js';
import { PURPOSE_IDS } from '../locales/builtin-texts.js';

export const GOOGLE_CONSENT_TYPES = [
  'ad_storage',
  'analytics_storage',
  'ad_user_data',
  'ad_personalization',
  'functionality_storage',
  'personalization_storage',
  'security_storage',
] as const;

export const PurposeSchema = StringEnum(PURPOSE_IDS, {
  description: '41ba25c necessary, cdcbd7c ads, a717ff5 analytics, 7c19e32 personalisation, 6cd2721 social media, 15c61c3 other',
});

const LegalText = () => Text(5000);

const EmbeddingTranslation = Type.Object(
  {
    name: Type.Optional(Text(200)),
    description: Type.Optional(LegalText()),
    privacyPolicyUrl: Type.Optional(UrlOrEmpty()),
    whatDataIsCollected: Type.Optional(LegalText()),
    purposeOfDataCollection: Type.Optional(LegalText()),
    legalBasis: Type.Optional(LegalText()),
    placeOfProcessing: Type.Optional(LegalText()),
    blockedContentTitle: Type.Optional(Text(200)),
    blockedContentText: Type.Optional(Text(2000)),
    blockedContentButtonText: Type.Optional(Text(100)),
  },
  { additionalProperties: false },
);

/** Every Embedding field except id, name, purpose, active and assets, with its bounds. */
export const EmbeddingSettingsSchema = Type.Object({
  vendor: Text(1000),
  scriptHtmlCode: Text(65536, { description: 'HTML injected only after consent ("tag-manager mode")' }),
  scriptLoaderGroup: Text(100, { pattern: '^[A-Za-z0-9_.:-]*$', description: 'letters, digits and _ . : -' }),
  scriptMarkers: StringList(100, 500),
  iframeMarkers: StringList(100, 500),
  hideIframesUntilConsent: Type.Boolean(),
  excludeUrlsMode: StringEnum(['exclude', 'include'] as const, {
    description: 'exclude: not activated on the URLs listed; include: activated only there',
  }),
  excludeFromUrls: StringList(100, 2000),
  description: LegalText(),
  privacyPolicyUrl: UrlOrEmpty(),
  whatDataIsCollected: LegalText(),
  purposeOfDataCollection: LegalText(),
  legalBasis: LegalText(),
  placeOfProcessing: LegalText(),
  translations: LocaleMap(EmbeddingTranslation),
  tcfVendor: Nullable(Type.Integer({ minimum: 1, maximum: 100000 })),
  tcfPurposes: IntList(24),
  tcfSpecialFeatures: IntList(24),
  googleConsentMode: Type.Array(StringEnum(GOOGLE_CONSENT_TYPES), { maxItems: 7, uniqueItems: true }),
});
export type EmbeddingSettings = Static<typeof EmbeddingSettingsSchema>;

export const EMBEDDING_DEFAULTS: EmbeddingSettings = {
  vendor: '',
  scriptHtmlCode: '',
  scriptLoaderGroup: '',
  scriptMarkers: [],
  iframeMarkers: [],
  hideIframesUntilConsent: false,
  excludeUrlsMode: 'exclude',
  excludeFromUrls: [],
  description: '',
  privacyPolicyUrl: '',
  whatDataIsCollected: '',
  purposeOfDataCollection: '',
  legalBasis: '',
  placeOfProcessing: '',
  translations: {},
  tcfVendor: null,
  tcfPurposes: [],
  tcfSpecialFeatures: [],
  googleConsentMode: [],
};

export const CreateEmbeddingBody = Type.Object(
  {
    name: NonEmptyText(200),
    purpose: PurposeSchema,
    active: Type.Optional(Type.Boolean({ description: 'only active embeddings appear in the widget; default true' })),
    ...Type.Partial(EmbeddingSettingsSchema).properties,
    assets: Type.Optional(
      Type.Array(CreateAssetBody, {
        maxItems: MAX_ASSETS_PER_EMBEDDING,
        description: 'replaces all assets of the embedding',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateEmbedding = Static<typeof CreateEmbeddingBody>;

export const UpdateEmbeddingBody = Type.Partial(CreateEmbeddingBody, { additionalProperties: false });
export type UpdateEmbedding = Static<typeof UpdateEmbeddingBody>;

export const EmbeddingSchema = Type.Object({
  id: Type.String({ description: '7 lowercase hex characters' }),
  name: Type.String(),
  active: Type.Boolean(),
  purpose: Type.String(),
  ...EmbeddingSettingsSchema.properties,
  assets: Type.Array(AssetSchema),
});
export type Embedding = Static<typeof EmbeddingSchema>;

export const MAX_EMBEDDINGS_PER_DOMAIN = 500;
