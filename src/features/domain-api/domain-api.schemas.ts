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

/** Records of ranges the agency set aside (consent-log.quarantine.ts) are left out unless `include`. */
const Quarantined = Type.Optional(
  Type.Union([Type.Literal('exclude'), Type.Literal('include')], {
    description: 'records of quarantined ranges (set aside by the agency as forged) are left out by default',
  }),
);

export const LookupQuery = Type.Object({ ...ApiKeyQuery.properties, quarantined: Quarantined });

export const ConsentsQuery = Type.Object({
  ...ApiKeyQuery.properties,
  quarantined: Quarantined,
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
    tcString: Type.Optional(Type.String({ description: 'IAB TCF domains: the TC string the decision produced (docs/tcf.md)' })),
    acString: Type.Optional(Type.String({ description: 'with Google Additional Consent: the AC string of the decision' })),
  },
  { additionalProperties: true },
);

export const ConsentListSchema = Preserialized(Type.Array(ConsentRecordSchema));

export const SnapshotParams = Type.Object({
  domainId: PathIdSchema,
  hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'the `snapshot` of a record: SHA-256 of the canonical configuration' }),
});

export const SnapshotSchema = Preserialized(
  Type.Object({
    hash: Type.String(),
    domainId: Type.String(),
    createdAt: Type.Integer({ description: 'Unix seconds when Placet first served it' }),
    config: Type.Object({}, {
      additionalProperties: true,
      description: 'the visible widget configuration (short keys of the widget configuration); its canonical JSON hashes to `hash`',
    }),
  }),
);

const ShownSchema = Type.Object({
  lang: Type.String({ description: "the snapshot's locale the texts come from: the record's lang, else the widget's default" }),
  texts: Type.Record(Type.String(), Type.String()),
  purposes: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), description: Type.String() })),
  embeddings: Type.Array(Type.Object({}, { additionalProperties: true })),
  legalLinks: Type.Unknown(),
  theme: Type.Unknown(),
});

export const ShownListSchema = Type.Array(
  Type.Object({
    record: ConsentRecordSchema,
    snapshot: Type.Union([Type.String(), Type.Null()]),
    shown: Type.Union([ShownSchema, Type.Null()], { description: 'null for a record without snapshot (format 1)' }),
  }),
);
