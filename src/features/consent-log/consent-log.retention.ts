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
import { unixNow } from './consent-log.service.js';

const HOUR_MS = 3_600_000;
const FIRST_RUN_DELAY_MS = 60_000;

export interface RetentionResult {
  closedBlocks: number;
  expiredBlocks: number;
  deletedRecords: number;
}

/**
 * Deletes records older than CONSENT_LOG_RETENTION_DAYS, whole blocks at a time: a block expires only
 * when its newest record is past the cutoff. An open block that old is closed first. The block's summary
 * row stays (state `expired`) so the chain still links across the gap.
 */
export async function applyRetention(deps: Deps): Promise<RetentionResult> {
  const now = unixNow(deps);
  const cutoff = now - deps.config.consentLog.retentionDays * 86_400;
  const result: RetentionResult = { closedBlocks: 0, expiredBlocks: 0, deletedRecords: 0 };
  for (const domainId of await listStaleHeads(deps.db, cutoff)) {
    await writeTransaction(deps.db, deps.engine, async (trx) => {
      const head = (await lockHeads(trx, deps.engine, [domainId], now)).get(domainId)!;
      // Re-checked under the lock: a consent may have arrived since the list was read.
      if (head.blockCount === 0 || head.blockLastTs === null || head.blockLastTs >= cutoff) return;
      await saveHead(trx, await closeOpenBlock(trx, head, 'retention', now));
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
  return result;
}

/** Runs retention about a minute after start and then hourly; the timers never keep the process alive. */
export function startRetentionJob(deps: Deps): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = applyRetention(deps)
      .then((r) => {
        if (r.expiredBlocks + r.closedBlocks + r.deletedRecords > 0) deps.log.info(r, 'consent log retention applied');
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
