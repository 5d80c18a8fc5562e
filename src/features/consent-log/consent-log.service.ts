import { resetStatistics } from '../statistics/statistics.service.js';
import { sha256Hex, type Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { requireDomain } from '../domains/domain-scope.js';
import { closeOpenBlock, lockHeads, saveHead, writeTransaction } from './consent-log.blocks.repository.js';
import { chainHash, genesisHash, parseCanonicalRecord } from './consent-log.record.js';
import {
  countRecordsBeyondHead,
  findClosedBlock,
  findHead,
  headToOpenBlock,
  listClosedBlocks,
  pageChainOrder,
  type Block,
} from './consent-log.repository.js';
import type { BlockDto, VerifyResult } from './consent-log.schemas.js';
import { checkpointSigner } from './consent-log.checkpoint.js';
import { checkpointToDto, signCheckpoint, type CheckpointDto } from './consent-log.checkpoints.js';
import { checkpointAt, listCheckpoints, type StoredCheckpoint } from './consent-log.checkpoints.repository.js';
import { blockSnapshots, type StoredSnapshot } from './consent-log.snapshots.repository.js';

/** Rows per keyset page when streaming or verifying. */
export const PAGE_ROWS = 1000;

export const unixNow = (deps: Pick<Deps, 'clock'>) => Math.floor(deps.clock.now().getTime() / 1000);

export function blockToDto(b: Block): BlockDto {
  const { blockNo, ...rest } = b;
  return { id: blockNo, ...rest };
}

/** Closes the open block now (201 with its summary); the Domain API shows only the new, empty block. */
export async function archiveCurrentBlock(deps: Deps, clientId: string, domainId: string, withStatistics = false): Promise<BlockDto> {
  const now = unixNow(deps);
  return writeTransaction(deps.db, deps.engine, async (trx) => {
    await requireDomain(trx, deps.engine, clientId, domainId);
    const head = (await lockHeads(trx, deps.engine, [domainId], now)).get(domainId)!;
    if (head.blockCount === 0) throw new AppError('CONSENT_LOG_EMPTY');
    await saveHead(trx, await closeOpenBlock(trx, head, 'manual', now));
    if (withStatistics) await resetStatistics(trx, domainId);
    await signCheckpoint(deps, trx, { domainId, seq: head.lastSeq, headHash: head.headHash });
    return blockToDto({ ...headToOpenBlock(head), state: 'archived', reason: 'manual', closedAt: now });
  });
}

/** All blocks of the domain, oldest first; the last one is the open block. */
export async function listBlocks(deps: Deps, clientId: string, domainId: string): Promise<BlockDto[]> {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  return (await allBlocks(deps, domainId)).map(blockToDto);
}

async function allBlocks(deps: Deps, domainId: string): Promise<Block[]> {
  const [closed, head] = await Promise.all([listClosedBlocks(deps.db, domainId), findHead(deps.db, domainId)]);
  return head ? [...closed, headToOpenBlock(head)] : closed;
}

/**
 * A block as NDJSON, so that it is proof on its own (docs/consent-log.md, "Export"): first one line per
 * snapshot its records name (`{"snapshot":hash,"config":canonical JSON text}`), then one line per record,
 * oldest first, with its chain position, the hash it is chained to, its own hash and the stored record,
 * and last the signed checkpoint of the block's head (`{"checkpoint":{…}}`).
 */
export async function exportBlock(
  deps: Deps,
  clientId: string,
  domainId: string,
  blockNo: number,
): Promise<{ block: BlockDto; lines: AsyncIterable<string> }> {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  const head = await findHead(deps.db, domainId);
  const block =
    head?.blockNo === blockNo ? headToOpenBlock(head) : await findClosedBlock(deps.db, domainId, blockNo);
  if (!block) throw new AppError('BLOCK_NOT_FOUND');
  if (block.state === 'expired') throw new AppError('BLOCK_EXPIRED');
  const [snapshots, checkpoint] = await Promise.all([
    blockSnapshots(deps.db, domainId, blockNo),
    block.recordCount === 0 ? undefined : checkpointFor(deps, domainId, block.lastSeq, block.headHash),
  ]);
  return { block: blockToDto(block), lines: ndjson(deps, domainId, block, snapshots, checkpoint) };
}

/** The stored checkpoint at `seq`, signed now when there is none yet. */
async function checkpointFor(deps: Deps, domainId: string, seq: number, headHash: string): Promise<CheckpointDto> {
  const stored = (await checkpointAt(deps.db, domainId, seq)) ?? (await signCheckpoint(deps, deps.db, { domainId, seq, headHash }));
  return checkpointToDto(deps, stored);
}

/** Lets other requests run between pages of a long read (SQLite reads are synchronous). */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function* ndjson(
  deps: Deps,
  domainId: string,
  block: Block,
  snapshots: readonly StoredSnapshot[],
  checkpoint: CheckpointDto | undefined,
): AsyncIterable<string> {
  for (const snapshot of snapshots) yield `{"snapshot":"${snapshot.hash}","config":${JSON.stringify(snapshot.config)}}\n`;
  let prev = block.prevHash;
  for (let after = block.firstSeq - 1; after < block.lastSeq; ) {
    const rows = await pageChainOrder(deps.db, domainId, after, block.lastSeq, PAGE_ROWS);
    if (rows.length === 0) break;
    let chunk = '';
    for (const r of rows) {
      chunk += `{"seq":${r.seq},"block":${r.blockNo},"prevHash":"${prev}","hash":"${r.hash}","record":${r.record}}\n`;
      prev = r.hash;
    }
    after = rows[rows.length - 1]!.seq;
    yield chunk;
    await yieldToEventLoop();
  }
  if (checkpoint) yield `${JSON.stringify({ checkpoint })}\n`;
}

type Mismatch = NonNullable<VerifyResult['firstMismatch']>;

/** Records per page when verifying: small enough that a page never holds the event loop for long. */
const VERIFY_PAGE_ROWS = 250;

/** A checkpoint the site owner kept (from the Domain API or an export), to prove nothing before it changed. */
export interface KeptCheckpoint {
  seq: number;
  headHash: string;
  signedAt?: number | undefined;
  signature?: string | undefined;
}

/**
 * Recomputes the domain's chain from its first block: every record's hash from the previous one, the
 * record's canonical form and columns, the seq sequence, each block's summary and link to the block
 * before it, the snapshot every record names (kept by its block, hashing to its key), every signed
 * checkpoint (signature, and the chain's hash at its position) and, when given, a checkpoint the owner
 * kept. Expired blocks are checked by their stored head hash only (their records are gone). Reads in
 * pages and yields between them, so other requests are served meanwhile.
 */
export async function verifyLog(deps: Deps, clientId: string, domainId: string, kept?: KeptCheckpoint): Promise<VerifyResult> {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  const [blocks, checkpoints] = await Promise.all([allBlocks(deps, domainId), listCheckpoints(deps.db, domainId)]);
  const signer = checkpointSigner(deps.config);
  let prev = genesisHash(domainId);
  let expected = 1;
  let checkedRecords = 0;
  let checkedBlocks = 0;
  let checkedSnapshots = 0;
  const cp = { checked: 0, unknownKey: 0, unverifiable: 0, lastSeq: null as number | null, keyId: signer.keyId };
  let keptResult: VerifyResult['kept'] = null;
  const lastSeq = blocks.at(-1)?.lastSeq ?? 0;
  const result = (firstMismatch: Mismatch | null): VerifyResult => ({
    ok: firstMismatch === null,
    checkedRecords,
    checkedBlocks,
    checkedSnapshots,
    lastSeq,
    headHash: blocks.at(-1)?.headHash ?? prev,
    checkpoints: cp,
    kept: keptResult,
    firstMismatch,
  });
  const blockOf = (seq: number) => blocks.find((b) => b.firstSeq <= seq && seq <= b.lastSeq) ?? blocks.at(-1);
  const mismatch = (block: Block | undefined, seq: number, reason: Mismatch['reason'], message: string, ucid: string | null = null) =>
    result({ seq, blockId: block?.blockNo ?? 0, ucid, reason, message });

  // Signatures first: a checkpoint of this key that does not verify was not written by Placet.
  const signed = new Map<number, StoredCheckpoint>();
  for (const c of checkpoints) {
    if (c.keyId !== signer.keyId) {
      cp.unknownKey++;
      continue;
    }
    if (!signer.verify(c, c.signature)) {
      return mismatch(blockOf(c.seq), c.seq, 'signature', 'a stored checkpoint does not carry a valid signature of the signing key');
    }
    signed.set(c.seq, c);
  }
  if (kept) {
    const signature = kept.signature === undefined || kept.signedAt === undefined
      ? 'absent'
      : signer.verify({ domainId, seq: kept.seq, headHash: kept.headHash, signedAt: kept.signedAt }, kept.signature) ? 'valid' : 'invalid';
    keptResult = { seq: kept.seq, matches: false, signature };
    if (signature === 'invalid') return mismatch(blockOf(kept.seq), kept.seq, 'kept', 'the kept checkpoint does not carry a valid signature of the signing key');
    if (kept.seq > lastSeq) return mismatch(blocks.at(-1), kept.seq, 'kept', 'the log ends before the position of the kept checkpoint');
  }
  /** Compares the chain's hash at `seq` with the checkpoints there; a mismatch, or undefined. */
  const anchor = (block: Block, seq: number, hash: string, ucid: string | null) => {
    const c = signed.get(seq);
    if (c) {
      if (c.headHash !== hash) return mismatch(block, seq, 'checkpoint', 'the chain differs from a signed checkpoint at this position', ucid);
      cp.checked++;
      cp.lastSeq = seq;
    }
    if (kept && keptResult && kept.seq === seq) {
      if (kept.headHash !== hash) return mismatch(block, seq, 'kept', 'the chain differs from the kept checkpoint at this position', ucid);
      keptResult.matches = true;
    }
    return undefined;
  };

  for (const block of blocks) {
    if (block.prevHash !== prev || block.firstSeq !== expected) {
      return mismatch(block, block.firstSeq, 'link', 'the block does not continue the chain of the block before it');
    }
    if (block.state === 'expired') {
      for (const seq of signed.keys()) if (seq >= block.firstSeq && seq < block.lastSeq) cp.unverifiable++;
      if (kept && kept.seq >= block.firstSeq && kept.seq < block.lastSeq) {
        return mismatch(block, kept.seq, 'kept', 'the records up to the kept checkpoint have expired (retention); only a block head can be compared');
      }
      const bad = anchor(block, block.lastSeq, block.headHash, null);
      if (bad) return bad;
      prev = block.headHash;
      expected = block.lastSeq + 1;
      continue;
    }
    const snapshots = new Map((await blockSnapshots(deps.db, domainId, block.blockNo)).map((s) => [s.hash, s]));
    const goodSnapshots = new Set<string>();
    for (let after = block.firstSeq - 1; after < block.lastSeq; ) {
      const rows = await pageChainOrder(deps.db, domainId, after, block.lastSeq, VERIFY_PAGE_ROWS);
      if (rows.length === 0) break;
      for (const r of rows) {
        if (r.seq !== expected) return mismatch(block, expected, 'missing', 'a record is missing from the chain');
        if (chainHash(prev, r.record) !== r.hash) {
          return mismatch(block, r.seq, 'hash', 'the stored hash does not match the record and the hash before it', r.ucid);
        }
        const parsed = parseCanonicalRecord(r.record);
        if (!parsed || parsed.ucid !== r.ucid || parsed.timestamp !== r.ts || r.blockNo !== block.blockNo) {
          return mismatch(block, r.seq, 'content', 'the record is not in canonical form or disagrees with its columns', r.ucid);
        }
        if (parsed.snapshot !== undefined && !goodSnapshots.has(parsed.snapshot)) {
          const snapshot = snapshots.get(parsed.snapshot);
          if (!snapshot || snapshot.config === '') {
            return mismatch(block, r.seq, 'snapshot', 'the snapshot the record names is not kept', r.ucid);
          }
          if (sha256Hex(snapshot.config) !== snapshot.hash) {
            return mismatch(block, r.seq, 'snapshot', 'the snapshot the record names does not hash to its key', r.ucid);
          }
          goodSnapshots.add(parsed.snapshot);
          checkedSnapshots++;
        }
        const bad = anchor(block, r.seq, r.hash, r.ucid);
        if (bad) return bad;
        prev = r.hash;
        expected++;
        checkedRecords++;
      }
      after = rows[rows.length - 1]!.seq;
      await yieldToEventLoop();
    }
    if (expected !== block.lastSeq + 1) return mismatch(block, expected, 'missing', 'a record is missing from the chain');
    if (prev !== block.headHash || block.recordCount !== block.lastSeq - block.firstSeq + 1) {
      return mismatch(block, block.lastSeq, 'summary', "the block's head hash or record count does not match its records");
    }
    checkedBlocks++;
  }
  const beyond = [...signed.keys()].find((seq) => seq > lastSeq);
  if (beyond !== undefined) return mismatch(blocks.at(-1), beyond, 'checkpoint', 'a signed checkpoint lies beyond the end of the log');
  const last = blocks.at(-1);
  if (last && (await countRecordsBeyondHead(deps.db, domainId)) > 0) {
    return mismatch(last, last.lastSeq + 1, 'extra', 'records exist beyond the chain head');
  }
  return result(null);
}
