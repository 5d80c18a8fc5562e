import type { Executor } from '../../db/database.js';
import type { Deps } from '../../deps.js';
import { checkpointSigner, checkpointMessage } from './consent-log.checkpoint.js';
import {
  checkpointAt,
  closedBlocksWithoutCheckpoint,
  headsDueForCheckpoint,
  insertCheckpoint,
  type StoredCheckpoint,
} from './consent-log.checkpoints.repository.js';
import { unixNow } from './consent-log.service.js';

/** A signed checkpoint as the Domain API, the export and verify show it. */
export interface CheckpointDto {
  domainId: string;
  seq: number;
  headHash: string;
  signedAt: number;
  keyId: string;
  signature: string;
  /** The exact text that was signed (Ed25519, UTF-8). */
  message: string;
  publicKey: string;
}

export function checkpointToDto(deps: Pick<Deps, 'config'>, c: StoredCheckpoint): CheckpointDto {
  const { domainId, seq, headHash, signedAt, keyId, signature } = c;
  return { domainId, seq, headHash, signedAt, keyId, signature, message: checkpointMessage(c), publicKey: checkpointSigner(deps.config).publicKeyPem };
}

/** Signs the chain head `headHash` at `seq` and stores it (in the caller's transaction, if any). */
export async function signCheckpoint(
  deps: Pick<Deps, 'config' | 'clock'>,
  db: Executor,
  head: { domainId: string; seq: number; headHash: string },
): Promise<StoredCheckpoint> {
  const signer = checkpointSigner(deps.config);
  const checkpoint = { domainId: head.domainId, seq: head.seq, headHash: head.headHash, signedAt: unixNow(deps) };
  const stored = { ...checkpoint, keyId: signer.keyId, signature: signer.sign(checkpoint) };
  await insertCheckpoint(db, stored);
  // Another process may have signed the same position a moment earlier: that one is the stored one.
  return (await checkpointAt(db, head.domainId, head.seq)) ?? stored;
}

/** Checkpoints signed per job run at most (the rest follow on the next run). */
const PER_RUN = 1000;

/**
 * Signs what is due: the head of every closed block that has no checkpoint yet (blocks closed by size
 * are closed inside the write path, so they are signed here, within a minute), and every chain head that
 * moved since its last checkpoint when that is older than CONSENT_LOG_CHECKPOINT_INTERVAL_SECONDS. Runs
 * in every process; two processes signing the same position store one checkpoint.
 */
export async function signDueCheckpoints(deps: Deps): Promise<number> {
  const now = unixNow(deps);
  const due = [
    ...(await closedBlocksWithoutCheckpoint(deps.db, PER_RUN)),
    ...(await headsDueForCheckpoint(deps.db, now - deps.config.checkpoints.intervalSeconds, PER_RUN)),
  ];
  for (const head of due) await signCheckpoint(deps, deps.db, head);
  return due.length;
}

/** Runs signDueCheckpoints every minute (or every interval, when shorter); the timer never keeps the process alive. */
export function startCheckpointJob(deps: Deps): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = signDueCheckpoints(deps)
      .then(() => undefined)
      .catch((err: unknown) => deps.log.error({ err }, 'consent log checkpoints failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, Math.min(60, deps.config.checkpoints.intervalSeconds) * 1000).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
