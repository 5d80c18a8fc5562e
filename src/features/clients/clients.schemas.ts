import { Type, type Static } from 'typebox';
import { QuotaSchema, Text } from '../../schemas/common.js';

export const FEATURE_FLAGS = [
  'canUseABTests',
  'canUseAnalytics',
  'canUseConsentSharing',
  'canUseDomAPI',
  'canUseIAB',
  'canUseIframeCSS',
  'canUseIframes',
  'canUseIndCSS',
  'canUseMultiDom',
  'canUseOwnLogo',
  'canUseScripts',
  'canUseUserGroupRights',
  'moreThan2Lang',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
export type Features = Record<FeatureFlag, boolean>;

const flag = Type.Boolean();
const FeaturesSchema = Type.Object(
  {
    canUseABTests: flag, canUseAnalytics: flag, canUseConsentSharing: flag, canUseDomAPI: flag,
    canUseIAB: flag, canUseIframeCSS: flag, canUseIframes: flag, canUseIndCSS: flag, canUseMultiDom: flag,
    canUseOwnLogo: flag, canUseScripts: flag, canUseUserGroupRights: flag, moreThan2Lang: flag,
  },
  { additionalProperties: false, description: 'Feature flags; a new client gets all of them.' },
);

const writable = {
  username: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[A-Za-z0-9._@+-]+$',
    description: 'letters, digits and . _ @ + - (1 to 100 characters)',
  }),
  password: Type.String({ minLength: 8, maxLength: 200, description: 'Write-only; stored as a bcrypt hash.' }),
  passwordHash: Type.String({
    pattern: '^\\$2[aby]\\$\\d\\d\\$[./A-Za-z0-9]{53}$',
    description: 'a bcrypt hash ($2a$, $2b$ or $2y$); write-only. `password` wins when both are given.',
  }),
  active: Type.Boolean(),
  firstName: Text(100),
  lastName: Text(100),
  company: Text(200),
  emailAddress: Type.String({ format: 'email', maxLength: 254 }),
  domainMaxCount: QuotaSchema,
  whitelabelMaxCount: QuotaSchema,
  widgetDisplayMaxCount: QuotaSchema,
  autoCreateDomains: Type.Boolean(),
  features: Type.Partial(FeaturesSchema),
};

export const CreateClientBody = Type.Object(
  {
    apiKey: Type.Optional(
      Type.String({
        pattern: '^[0-9a-fA-F]{48}$',
        description:
          'Optional public key to keep (48 hex characters, unique), e.g. the one a site moved from the established ' +
          'product already carries in its snippet. Omitted: a new random key. Set on create only.',
      }),
    ),
    username: writable.username,
    emailAddress: writable.emailAddress,
    password: Type.Optional(writable.password),
    passwordHash: Type.Optional(writable.passwordHash),
    active: Type.Optional(writable.active),
    firstName: Type.Optional(writable.firstName),
    lastName: Type.Optional(writable.lastName),
    company: Type.Optional(writable.company),
    domainMaxCount: Type.Optional(writable.domainMaxCount),
    whitelabelMaxCount: Type.Optional(writable.whitelabelMaxCount),
    widgetDisplayMaxCount: Type.Optional(writable.widgetDisplayMaxCount),
    autoCreateDomains: Type.Optional(writable.autoCreateDomains),
    features: Type.Optional(writable.features),
  },
  { additionalProperties: false },
);
export type CreateClient = Static<typeof CreateClientBody>;

/** The apiKey is set on create only: PUT drops it like any read-only field. */
export const UpdateClientBody = Type.Partial(Type.Omit(CreateClientBody, ['apiKey']), { additionalProperties: false });
export type UpdateClient = Static<typeof UpdateClientBody>;

export const ClientSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  active: Type.Boolean(),
  firstName: Type.String(),
  lastName: Type.String(),
  company: Type.String(),
  emailAddress: Type.String(),
  domainCount: Type.Integer(),
  domainMaxCount: Type.Integer(),
  whitelabelCount: Type.Integer(),
  whitelabelMaxCount: Type.Integer(),
  widgetDisplayCount: Type.Integer({ description: 'Widget loads this month (UTC).' }),
  widgetDisplayMaxCount: Type.Integer(),
  autoCreateDomains: Type.Boolean(),
  features: FeaturesSchema,
  apiKey: Type.String({ description: 'Public account key used in embed snippets (48 hex characters).' }),
});
export type Client = Static<typeof ClientSchema>;

export const ClientListItemSchema = Type.Object({
  ...ClientSchema.properties,
  actualCallCount: Type.Integer({ description: 'Widget loads this month (UTC).' }),
  domainCountData: Type.Array(Type.Object({ domName: Type.String(), count: Type.Integer() })),
});
export type ClientListItem = Static<typeof ClientListItemSchema>;

export const DomainApiKeySchema = Type.Object({
  apiKey: Type.String({ description: 'Secret key for the Domain API; shown once, stored only as a hash.' }),
});
