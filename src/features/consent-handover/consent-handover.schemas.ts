import { Type, type Static } from 'typebox';
import { LocaleNameSchema } from '../../schemas/common.js';
import { MAX_CONSENT_EMBEDDINGS } from '../consent-ingest/consent-ingest.schemas.js';

/** Largest accepted body of the hand-over endpoints (the issue body holds up to 500 embedding ids). */
export const HANDOVER_BODY_LIMIT = 16 * 1024;

const apiKey = Type.String({ pattern: '^[0-9a-f]{48}$', description: "the client's public key (48 hex)" });
const domain = Type.String({ pattern: '^[0-9a-f]{7}$', description: 'a domain id (7 hex)' });
const ucid = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'a ucid: 64 lowercase hex characters' });
const revision = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
const embeddingIds = Type.Array(Type.String({ minLength: 1, maxLength: 16 }), {
  maxItems: MAX_CONSENT_EMBEDDINGS,
  description: 'ids of the accepted embeddings',
});

/** What the issuing widget sends: the decision it holds, and where the visitor is going. */
export const IssueBody = Type.Object(
  {
    apiKey,
    domain,
    ucid,
    consent: Type.Boolean(),
    embeddings: embeddingIds,
    target: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'the address the visitor is going to; without it the token is good on any page of the set',
      }),
    ),
  },
  { additionalProperties: false },
);
export type IssueInput = Static<typeof IssueBody>;

export const IssuedToken = Type.Object({
  token: Type.String({ description: '64 hex characters; put `ccm_handover=<token>` in the target address fragment' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

/**
 * What the receiving widget sends: the hand-over token, and what its page was served and shows: the
 * `handover` record names them (its widget token and snapshot, as any record of POST /public/consent).
 */
export const RedeemBody = Type.Object(
  {
    apiKey,
    domain,
    handover: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'the hand-over token from the address fragment' }),
    token: Type.Optional(
      Type.String({ maxLength: 64, description: 'the widget token of the receiving page (docs/consent-log.md, "Widget tokens")' }),
    ),
    snapshot: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'the `sh` of the configuration the receiving page was served: a snapshot Placet served for this domain',
    }),
    lang: LocaleNameSchema,
    revision,
    legalRevision: revision,
    themeId: Type.Optional(Type.String({ pattern: '^[0-9a-f]{7}$' })),
    gpc: Type.Optional(Type.Boolean()),
    dnt: Type.Optional(Type.Boolean()),
    held: Type.Optional(
      Type.Object(
        {
          ucid,
          updated: Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000, description: 'Unix milliseconds' }),
        },
        { additionalProperties: false, description: 'the decision this page already holds, if any' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type RedeemInput = Static<typeof RedeemBody>;

export const HandedOver = Type.Object({
  ucid: Type.String(),
  consent: Type.Boolean(),
  embeddings: Type.Array(Type.String(), { maxItems: MAX_CONSENT_EMBEDDINGS }),
  created: Type.String({ format: 'date-time', description: 'when the decision was made (server clock)' }),
  updated: Type.String({ format: 'date-time', description: 'the same: a hand-over does not renew a decision' }),
  legalRevision: Type.Integer(),
});
export type HandedOverDto = Static<typeof HandedOver>;
