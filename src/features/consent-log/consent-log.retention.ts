import type { Deps } from '../../deps.js';
import {
  closeOpenBlock,
  deleteExpiredBlockRecords,
  listExpiredBlocks,
  listExpiredBlocksWithRecords,
  listStaleHeads,
  lockHeads,
  markBlockExpired,
  saveHead,
  writeTransaction,
} from './consent-log.blocks.repository.js';
import { signCheckpoint } from './consent-log.checkpoints.js';
import { unixNow } from './consent-log.service.js';
import {
  deleteBlockSnapshotRefs,
  deleteUnreferencedSnapshots,
  listExpiredBlocksWithSnapshotRefs,
} from './consent-log.snapshots.repository.js';

const HOUR_MS = 3_600_000;
const FIRST_RUN_DELAY_MS = 60_000;

export interface RetentionResult {
  closedBlocks: number;
  expiredBlocks: number;
  deletedRecords: number;
  deletedSnapshots: number;
}

/** An unreferenced snapshot the domain no longer serves is kept this long after it was last built. */
const SNAPSHOT_GRACE_SECONDS = 86_400;

/**
 * Deletes records older than CONSENT_LOG_RETENTION_DAYS, whole blocks at a time: a block expires only
 * when its newest record is past the cutoff. An open block that old is closed first. The block's summary
 * row stays (state `expired`) so the chain still links across the gap.
 */
export async function applyRetention(deps: Deps): Promise<RetentionResult> {
  const now = unixNow(deps);
  const cutoff = now - deps.config.consentLog.retentionDays * 86_400;
  const result: RetentionResult = { closedBlocks: 0, expiredBlocks: 0, deletedRecords: 0, deletedSnapshots: 0 };
  for (const domainId of await listStaleHeads(deps.db, cutoff)) {
    await writeTransaction(deps.db, deps.engine, async (trx) => {
      const head = (await lockHeads(trx, deps.engine, [domainId], now)).get(domainId)!;
      // Re-checked under the lock: a consent may have arrived since the list was read.
      if (head.blockCount === 0 || head.blockLastTs === null || head.blockLastTs >= cutoff) return;
      await saveHead(trx, await closeOpenBlock(trx, head, 'retention', now));
      await signCheckpoint(deps, trx, { domainId, seq: head.lastSeq, headHash: head.headHash });
      result.closedBlocks++;
    });
  }
  for (const block of await listExpiredBlocks(deps.db, cutoff)) {
    if (await markBlockExpired(deps.db, block.domainId, block.blockNo, now)) result.expiredBlocks++;
  }
  // Also finishes blocks whose deletion an earlier run did not complete.
  for (const block of await listExpiredBlocksWithRecords(deps.db)) {
    result.deletedRecords += await deleteExpiredBlockRecords(deps.db, block);
  }
  // What the visitors saw goes with the last record that names it, never earlier: the references of
  // expired blocks (their records are gone), then snapshots no block refers to any more, that the domain
  // no longer serves and that no widget has been built with for a day (a page open that long may still
  // send a decision naming it).
  for (const block of await listExpiredBlocksWithSnapshotRefs(deps.db)) {
    await deleteBlockSnapshotRefs(deps.db, block.domainId, block.blockNo);
  }
  result.deletedSnapshots = await deleteUnreferencedSnapshots(deps.db, now - SNAPSHOT_GRACE_SECONDS);
  return result;
}

/** Runs retention about a minute after start and then hourly; the timers never keep the process alive. */
export function startRetentionJob(deps: Deps): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = applyRetention(deps)
      .then((r) => {
        if (r.expiredBlocks + r.closedBlocks + r.deletedRecords + r.deletedSnapshots > 0) deps.log.info(r, 'consent log retention applied');
      })
      .catch((err: unknown) => deps.log.error({ err }, 'consent log retention failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, FIRST_RUN_DELAY_MS).unref();
  const hourly = setInterval(run, HOUR_MS).unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(hourly);
      await running;
    },
  };
}
