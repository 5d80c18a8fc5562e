import { Type, type Static } from 'typebox';
import { LocaleNameSchema, StringEnum } from '../../schemas/common.js';
import { CONSENT_BUTTONS } from '../consent-log/consent-log.record.js';

/** Largest accepted body of POST /public/consent: 500 embedding ids fit with room to spare. */
export const CONSENT_BODY_LIMIT = 16 * 1024;
export const MAX_CONSENT_EMBEDDINGS = 500;

const revision = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

/** What the widget sends (docs/consent-log.md); unknown properties are dropped. */
export const ConsentBody = Type.Object(
  {
    apiKey: Type.String({ pattern: '^[0-9a-f]{48}$', description: "the client's public key (48 hex)" }),
    domain: Type.String({ pattern: '^[0-9a-f]{7}$', description: 'a domain id (7 hex)' }),
    ucid: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'a ucid: 64 lowercase hex characters' }),
    consent: Type.Boolean(),
    embeddings: Type.Array(Type.String({ minLength: 1, maxLength: 16 }), {
      maxItems: MAX_CONSENT_EMBEDDINGS,
      description: 'ids of the accepted embeddings',
    }),
    manipulationPrevention: Type.Boolean(),
    button: StringEnum(CONSENT_BUTTONS),
    lang: LocaleNameSchema,
    revision,
    legalRevision: revision,
    themeId: Type.Optional(Type.String({ pattern: '^[0-9a-f]{7}$', description: 'a theme id (7 hex)' })),
    token: Type.Optional(
      Type.String({ maxLength: 64, description: 'the token of the widget Placet served (docs/consent-log.md)' }),
    ),
    gpc: Type.Optional(Type.Boolean()),
    dnt: Type.Optional(Type.Boolean()),
    tcString: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$', maxLength: 8000, description: 'IAB TCF: the TC string of the decision' }),
    ),
    acString: Type.Optional(
      Type.String({ pattern: '^[12]~[0-9.]*(~dv\\.[0-9.]*)?$', maxLength: 8000, description: 'Google Additional Consent string of the decision' }),
    ),
    snapshot: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'the `sh` of the configuration the widget showed: a snapshot Placet served for this domain',
    }),
  },
  { additionalProperties: false },
);
export type ConsentInput = Static<typeof ConsentBody>;
