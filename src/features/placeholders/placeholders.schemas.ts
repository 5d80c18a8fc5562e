import { Type, type Static } from 'typebox';
import { Text } from '../../schemas/common.js';

export const MAX_PLACEHOLDERS_PER_DOMAIN = 500;

/** The variable name, braces optional on input (`COMPANY` or `{COMPANY}`); stored without them. */
export const PlaceholderNameSchema = Type.String({
  pattern: '^\\{?[A-Za-z0-9_-]{1,64}\\}?$',
  maxLength: 66,
  description: 'letters, digits, _ and - (1 to 64), optionally in braces',
});

export const CreatePlaceholderBody = Type.Object(
  { name: PlaceholderNameSchema, value: Text(5000) },
  { additionalProperties: false },
);
export type CreatePlaceholder = Static<typeof CreatePlaceholderBody>;

export const UpdatePlaceholderBody = Type.Object(
  {
    name: Type.Optional(PlaceholderNameSchema),
    value: Type.Optional(Text(5000)),
  },
  { additionalProperties: false },
);
export type UpdatePlaceholder = Static<typeof UpdatePlaceholderBody>;

export const ReplacePlaceholdersBody = Type.Array(CreatePlaceholderBody, { maxItems: MAX_PLACEHOLDERS_PER_DOMAIN });

export const PlaceholderSchema = Type.Object({
  name: Type.String({ description: 'without braces; texts refer to it as {NAME}' }),
  value: Type.String(),
});
export type Placeholder = Static<typeof PlaceholderSchema>;

export const stripBraces = (name: string) => name.replace(/^\{/, '').replace(/\}$/, '');
