import type { Deps } from '../../deps.js';
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

/** Rows per keyset page when streaming or verifying. */
export const PAGE_ROWS = 1000;

export const unixNow = (deps: Pick<Deps, 'clock'>) => Math.floor(deps.clock.now().getTime() / 1000);

export function blockToDto(b: Block): BlockDto {
  const { blockNo, ...rest } = b;
  return { id: blockNo, ...rest };
}

/** Closes the open block now (201 with its summary); the Domain API shows only the new, empty block. */
export async function archiveCurrentBlock(deps: Deps, clientId: string, domainId: string): Promise<BlockDto> {
  const now = unixNow(deps);
  return writeTransaction(deps.db, deps.engine, async (trx) => {
    await requireDomain(trx, deps.engine, clientId, domainId);
    const head = (await lockHeads(trx, deps.engine, [domainId], now)).get(domainId)!;
    if (head.blockCount === 0) throw new AppError('CONSENT_LOG_EMPTY');
    await saveHead(trx, await closeOpenBlock(trx, head, 'manual', now));
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
 * A block as NDJSON, oldest record first: one line per record with its chain position, the hash it is
 * chained to, its own hash and the stored record, so the block can be verified without the database.
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
  return { block: blockToDto(block), lines: ndjson(deps, domainId, block) };
}

async function* ndjson(deps: Deps, domainId: string, block: Block): AsyncIterable<string> {
  let prev = block.prevHash;
  for (let after = block.firstSeq - 1; after < block.lastSeq; ) {
    const rows = await pageChainOrder(deps.db, domainId, after, block.lastSeq, PAGE_ROWS);
    if (rows.length === 0) return;
    let chunk = '';
    for (const r of rows) {
      chunk += `{"seq":${r.seq},"block":${r.blockNo},"prevHash":"${prev}","hash":"${r.hash}","record":${r.record}}\n`;
      prev = r.hash;
    }
    after = rows[rows.length - 1]!.seq;
    yield chunk;
  }
}

type Mismatch = NonNullable<VerifyResult['firstMismatch']>;

/**
 * Recomputes the domain's chain from its first block: every record's hash from the previous one, the
 * record's canonical form and columns, the seq sequence, and each block's summary and link to the block
 * before it. Expired blocks are checked by their stored head hash only (their records are gone).
 */
export async function verifyLog(deps: Deps, clientId: string, domainId: string): Promise<VerifyResult> {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  const blocks = await allBlocks(deps, domainId);
  let prev = genesisHash(domainId);
  let expected = 1;
  let checkedRecords = 0;
  let checkedBlocks = 0;
  const result = (firstMismatch: Mismatch | null): VerifyResult => ({
    ok: firstMismatch === null,
    checkedRecords,
    checkedBlocks,
    lastSeq: blocks.at(-1)?.lastSeq ?? 0,
    headHash: blocks.at(-1)?.headHash ?? prev,
    firstMismatch,
  });
  const mismatch = (block: Block, seq: number, reason: Mismatch['reason'], message: string, ucid: string | null = null) =>
    result({ seq, blockId: block.blockNo, ucid, reason, message });

  for (const block of blocks) {
    if (block.prevHash !== prev || block.firstSeq !== expected) {
      return mismatch(block, block.firstSeq, 'link', 'the block does not continue the chain of the block before it');
    }
    if (block.state === 'expired') {
      prev = block.headHash;
      expected = block.lastSeq + 1;
      continue;
    }
    for (let after = block.firstSeq - 1; after < block.lastSeq; ) {
      const rows = await pageChainOrder(deps.db, domainId, after, block.lastSeq, PAGE_ROWS);
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
        prev = r.hash;
        expected++;
        checkedRecords++;
      }
      after = rows[rows.length - 1]!.seq;
    }
    if (expected !== block.lastSeq + 1) return mismatch(block, expected, 'missing', 'a record is missing from the chain');
    if (prev !== block.headHash || block.recordCount !== block.lastSeq - block.firstSeq + 1) {
      return mismatch(block, block.lastSeq, 'summary', "the block's head hash or record count does not match its records");
    }
    checkedBlocks++;
  }
  const last = blocks.at(-1);
  if (last && (await countRecordsBeyondHead(deps.db, domainId)) > 0) {
    return mismatch(last, last.lastSeq + 1, 'extra', 'records exist beyond the chain head');
  }
  return result(null);
}
