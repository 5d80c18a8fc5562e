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

export const VerifyResultSchema = Type.Object({
  ok: Type.Boolean(),
  checkedRecords: Type.Integer(),
  checkedBlocks: Type.Integer({ description: 'blocks whose records were recomputed (expired blocks only link)' }),
  lastSeq: Type.Integer(),
  headHash: Hash,
  firstMismatch: Nullable(
    Type.Object({
      seq: Type.Integer({ description: 'chain position of the first record that does not match' }),
      blockId: Type.Integer(),
      ucid: Nullable(Type.String()),
      reason: StringEnum(['hash', 'content', 'missing', 'extra', 'link', 'summary'] as const),
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

