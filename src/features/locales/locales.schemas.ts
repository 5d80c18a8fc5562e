import { Type, type Static, type TOptional, type TString, type TUnsafe } from 'typebox';
import { LocaleNameSchema, PROPERTY_NAMES, Text, UrlOrEmpty } from '../../schemas/common.js';
import { HTML_TEXT_FIELDS, LOCALE_TEXT_FIELDS, PURPOSE_IDS, type LocaleTextField, type PurposeId } from './builtin-texts.js';

export const MAX_LOCALES_PER_DOMAIN = 50;

const URL_FIELDS: readonly LocaleTextField[] = ['imprintUrl', 'privacyPolicyUrl', 'accessibilityUrl'];

function fieldSchema(field: LocaleTextField): TString {
  if (URL_FIELDS.includes(field)) return UrlOrEmpty();
  if (HTML_TEXT_FIELDS.includes(field)) return Text(100_000, { description: 'HTML, stored sanitised to an allow-list (formatting, tables, http(s)/mailto/tel links; see the README, Locales)' });
  return Text(5000);
}

const textProperties = Object.fromEntries(
  LOCALE_TEXT_FIELDS.map((f) => [f, Type.Optional(fieldSchema(f))]),
) as Record<LocaleTextField, TOptional<TString>>;

/** Keyed by the six purpose ids only: any other key is a 400. */
const PurposeMap = (maxLength: number): TUnsafe<Partial<Record<PurposeId, string>>> =>
  Type.Unsafe<Partial<Record<PurposeId, string>>>({
    type: 'object',
    [PROPERTY_NAMES]: { enum: [...PURPOSE_IDS] },
    additionalProperties: { type: 'string', maxLength },
    description: 'keyed by purpose id (41ba25c, cdcbd7c, a717ff5, 7c19e32, 6cd2721, 15c61c3)',
  });

const writable = {
  active: Type.Optional(Type.Boolean({ description: 'default true' })),
  ...textProperties,
  purposeNames: Type.Optional(PurposeMap(200)),
  purposeDescriptions: Type.Optional(PurposeMap(2000)),
};

/** The texts alone, as the agency's standard texts take them (account feature). */
export const LocaleTextsBody = Type.Object(
  { ...textProperties, purposeNames: Type.Optional(PurposeMap(200)), purposeDescriptions: Type.Optional(PurposeMap(2000)) },
  { additionalProperties: false },
);
export type LocaleTextsInput = Static<typeof LocaleTextsBody>;

const readTextsFields = () => Object.fromEntries(LOCALE_TEXT_FIELDS.map((f) => [f, Type.String()])) as Record<LocaleTextField, TString>;

/** Stored texts as read back: every field, "" where unset. */
export const LocaleTextsSchema = Type.Object({
  ...readTextsFields(),
  purposeNames: Type.Record(Type.String(), Type.String()),
  purposeDescriptions: Type.Record(Type.String(), Type.String()),
});

export const CreateLocaleBody = Type.Object({ name: LocaleNameSchema, ...writable }, { additionalProperties: false });
export type CreateLocale = Static<typeof CreateLocaleBody>;

export const UpdateLocaleBody = Type.Object(
  { name: Type.Optional(LocaleNameSchema), ...writable },
  { additionalProperties: false },
);
export type UpdateLocale = Static<typeof UpdateLocaleBody>;

const readTexts = Object.fromEntries(LOCALE_TEXT_FIELDS.map((f) => [f, Type.String()])) as Record<LocaleTextField, TString>;

export const LocaleSchema = Type.Object({
  name: Type.String(),
  active: Type.Boolean(),
  ...readTexts,
  purposeNames: Type.Record(Type.String(), Type.String()),
  purposeDescriptions: Type.Record(Type.String(), Type.String()),
});
export type Locale = Static<typeof LocaleSchema>;

export const LocaleQuery = Type.Object({
  effective: Type.Optional(
    Type.Boolean({ description: 'true: every empty field filled from the built-in texts (what the widget shows)' }),
  ),
});
