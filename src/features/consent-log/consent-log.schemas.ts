import type { Readable } from 'node:stream';
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { Nullable, PathIdSchema, StringEnum } from '../../schemas/common.js';

const Seconds = Type.Integer({ description: 'Unix seconds' });
const Hash = Type.String({ description: 'SHA-256, 64 lowercase hex characters' });

export const BlockSchema = Type.Object({
  id: Type.Integer({ description: 'block number within the domain, from 1' }),
  state: StringEnum(['open', 'archived', 'expired'] as const, {
    description: 'open: receives new records and is what the Domain API shows; archived: closed, kept; expired: closed, records deleted',
  }),
  reason: Nullable(StringEnum(['size', 'manual', 'retention'] as const, { description: 'why the block was closed' })),
  firstSeq: Type.Integer({ description: 'chain position of the first record' }),
  lastSeq: Type.Integer({ description: 'chain position of the last record (firstSeq - 1 when empty)' }),
  recordCount: Type.Integer(),
  firstTimestamp: Nullable(Seconds),
  lastTimestamp: Nullable(Seconds),
  prevHash: Type.String({ description: 'hash the first record is chained to (the previous block head)' }),
  headHash: Type.String({ description: "hash of the block's last record; for the open block, the chain head" }),
  openedAt: Seconds,
  closedAt: Nullable(Seconds),
  expiredAt: Nullable(Seconds),
});
export type BlockDto = Static<typeof BlockSchema>;

export const CheckpointSchema = Type.Object({
  domainId: Type.String(),
  seq: Type.Integer({ description: 'chain position of the head that was signed' }),
  headHash: Hash,
  signedAt: Seconds,
  keyId: Type.String({ description: 'first 16 bytes (hex) of the SHA-256 of the raw Ed25519 public key' }),
  signature: Type.String({ description: 'Ed25519 signature of `message`, base64url' }),
  message: Type.String({ description: 'the signed text: {"domain","seq","headHash","signedAt"} in that order, no whitespace' }),
  publicKey: Type.String({ description: 'the signing public key, SubjectPublicKeyInfo PEM' }),
});

export const VerifyQuery = Type.Object({
  seq: Type.Optional(Type.Integer({ minimum: 1, description: 'a kept checkpoint: its chain position' })),
  headHash: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'a kept checkpoint: its head hash' })),
  signedAt: Type.Optional(Type.Integer({ minimum: 0, description: 'a kept checkpoint: when it was signed (with signature)' })),
  signature: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{86}$', description: 'a kept checkpoint: its signature' })),
});

export const VerifyResultSchema = Type.Object({
  ok: Type.Boolean(),
  checkedRecords: Type.Integer(),
  checkedBlocks: Type.Integer({ description: 'blocks whose records were recomputed (expired blocks only link)' }),
  checkedSnapshots: Type.Integer({ description: 'distinct snapshots found and re-hashed (per block)' }),
  lastSeq: Type.Integer(),
  headHash: Hash,
  checkpoints: Type.Object({
    checked: Type.Integer({ description: 'signed checkpoints whose position was recomputed and matched' }),
    unknownKey: Type.Integer({ description: 'checkpoints signed by another key than the configured one (not trusted)' }),
    unverifiable: Type.Integer({ description: 'checkpoints inside expired blocks (their records are gone)' }),
    lastSeq: Nullable(Type.Integer({ description: 'position of the last checkpoint that matched' })),
    keyId: Type.String({ description: 'the configured signing key' }),
  }),
  kept: Nullable(
    Type.Object({
      seq: Type.Integer(),
      matches: Type.Boolean({ description: "the recomputed chain has the kept head hash at the kept position" }),
      signature: StringEnum(['valid', 'invalid', 'absent'] as const),
    }),
  ),
  firstMismatch: Nullable(
    Type.Object({
      seq: Type.Integer({ description: 'chain position of the first record that does not match' }),
      blockId: Type.Integer(),
      ucid: Nullable(Type.String()),
      reason: StringEnum(['hash', 'content', 'missing', 'extra', 'link', 'summary', 'snapshot', 'checkpoint', 'signature', 'kept'] as const),
      message: Type.String(),
    }),
  ),
});
export type VerifyResult = Static<typeof VerifyResultSchema>;

export const DomainParams = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema });
export const BlockParams = Type.Object({
  ...DomainParams.properties,
  blockId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});

/**
 * A response documented by `schema` but sent already serialised (stored JSON text, or a stream of it):
 * Fastify passes strings and streams through without running the serializer.
 */
export const Preserialized = (schema: TSchema): TUnsafe<string | Readable> => Type.Unsafe<string | Readable>(schema);


export const QuarantineParams = Type.Object({ ...DomainParams.properties, quarantineId: PathIdSchema });

const Seq = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const UnixSeconds = Type.Integer({ minimum: 0, maximum: 253_402_300_799 });

export const QuarantineBody = Type.Object(
  {
    fromSeq: Type.Optional({ ...Seq, description: 'first chain position set aside (with toSeq)' }),
    toSeq: Type.Optional({ ...Seq, description: 'last chain position set aside, at most the last written' }),
    from: Type.Optional({ ...UnixSeconds, description: 'instead of positions: records written from this time (Unix seconds) …' }),
    to: Type.Optional({ ...UnixSeconds, description: '… to this time, inclusive' }),
    reason: Type.String({ minLength: 1, maxLength: 500, pattern: '^[^\\u0000]*$', description: 'why, for the agency and an auditor' }),
  },
  { additionalProperties: false },
);

export const QuarantineSchema = Type.Object({
  id: Type.String(),
  fromSeq: Type.Integer(),
  toSeq: Type.Integer(),
  reason: Type.String(),
  createdAt: Type.String({ description: 'ISO 8601' }),
});
