import { Type, type Static } from 'typebox';
import { StringEnum } from '../../schemas/common.js';
import { PURPOSE_IDS } from '../locales/builtin-texts.js';

export const MAX_PRESET_PAGE = 200;

const Translations = Type.Record(Type.String(), Type.Object({ name: Type.String(), description: Type.String() }), {
  description: 'keyed by locale name: en_US and de_DE always',
});

export const PresetQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'case-insensitive words that must all occur in the name, vendor, description or a cookie name',
    }),
  ),
  purpose: Type.Optional(StringEnum(PURPOSE_IDS, { description: 'only presets of this purpose id' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PRESET_PAGE, default: 50 })),
});
export type PresetQueryInput = Static<typeof PresetQuery>;

export const PresetSummarySchema = Type.Object({
  id: Type.Integer({ description: 'preset id, for POST …/domain/{domainId}/onboarding/presets' }),
  name: Type.String(),
  purpose: Type.String({ description: 'purpose id' }),
  vendor: Type.String(),
  privacyPolicyUrl: Type.String(),
  translations: Translations,
  assets: Type.Array(
    Type.Object({ name: Type.String(), storageType: Type.String(), dynamic: Type.Boolean() }),
    { description: 'the cookies and storage entries the preset declares' },
  ),
});
export type PresetSummary = Static<typeof PresetSummarySchema>;

export const PresetPageSchema = Type.Object({
  total: Type.Integer({ description: 'presets matching the search, over all pages' }),
  offset: Type.Integer(),
  limit: Type.Integer(),
  items: Type.Array(PresetSummarySchema),
});
export type PresetPage = Static<typeof PresetPageSchema>;
