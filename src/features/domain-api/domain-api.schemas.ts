import { Type } from 'typebox';
import { PathIdSchema } from '../../schemas/common.js';
import { Preserialized } from '../consent-log/consent-log.schemas.js';

/** Bounds of GET /api/domains/{domainId}/consents?limit=. */
export const MAX_PAGE_LIMIT = 10_000;

export const ApiKeyQuery = Type.Object({
  apiKey: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'the secret Domain API key of the client (or send it as Authorization: Bearer)',
    }),
  ),
});

export const ConsentsQuery = Type.Object({
  ...ApiKeyQuery.properties,
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_LIMIT,
      description: 'page size; with it the answer is one page and a Link: rel="next" header when more follow',
    }),
  ),
  cursor: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', description: 'opaque cursor from the previous Link header' }),
  ),
});

export const DomainParams = Type.Object({ domainId: PathIdSchema });
export const ConsentParams = Type.Object({
  domainId: PathIdSchema,
  consentId: Type.String({
    pattern: '^[0-9a-fA-F]{1,64}$',
    description: 'a ucid or a leading part of one (hex, case-insensitive)',
  }),
});

export const TestResultSchema = Type.Object({ username: Type.String(), apiKey: Type.String() });

export const DomainListItemSchema = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'host name, with :port when the domain has one' }),
  whiteLabel: Type.Boolean(),
  viewCount: Type.Integer({ description: "the domain's counted widget calls, all months" }),
});

/** reference-model §3.2; records may carry further proof fields after these six. */
export const ConsentRecordSchema = Type.Object(
  {
    consent: Type.Boolean(),
    ucid: Type.String(),
    timestamp: Type.Integer({ description: 'Unix seconds' }),
    purposes: Type.Record(Type.String(), Type.String()),
    embeddings: Type.Record(Type.String(), Type.String()),
    manipulationPrevention: Type.Boolean(),
  },
  { additionalProperties: true },
);

export const ConsentListSchema = Preserialized(Type.Array(ConsentRecordSchema));
