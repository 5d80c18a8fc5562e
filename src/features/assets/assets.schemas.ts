import { Type, type Static } from 'typebox';
import { LocaleMap, NonEmptyText, StringEnum, Text } from '../../schemas/common.js';

export const STORAGE_TYPES = ['cookie', 'localStorage', 'sessionStorage', 'indexedDb', 'webSql', 'other'] as const;

const AssetTranslation = Type.Object(
  { lifetime: Type.Optional(Text(200)), description: Type.Optional(Text(5000)) },
  { additionalProperties: false },
);

const fields = {
  name: NonEmptyText(200, { description: 'name in the browser, e.g. _ga; * is a wildcard (_pk_id.*)' }),
  dynamic: Type.Boolean({ description: 'the name is a pattern; defaults to true when the name contains *' }),
  storageType: StringEnum(STORAGE_TYPES),
  lifetime: Text(200, { description: 'free text such as "2 years"' }),
  description: Text(5000),
  translations: LocaleMap(AssetTranslation),
};

export const CreateAssetBody = Type.Object(
  {
    name: fields.name,
    dynamic: Type.Optional(fields.dynamic),
    storageType: Type.Optional(fields.storageType),
    lifetime: Type.Optional(fields.lifetime),
    description: Type.Optional(fields.description),
    translations: Type.Optional(fields.translations),
  },
  { additionalProperties: false },
);
export type CreateAsset = Static<typeof CreateAssetBody>;

export const UpdateAssetBody = Type.Partial(CreateAssetBody, { additionalProperties: false });
export type UpdateAsset = Static<typeof UpdateAssetBody>;

export const AssetSchema = Type.Object({ id: Type.String(), ...fields });
export type Asset = Static<typeof AssetSchema>;
export type AssetData = Omit<Asset, 'id' | 'name'>;

/** Limits on assets: per embedding. */
export const MAX_ASSETS_PER_EMBEDDING = 200;
