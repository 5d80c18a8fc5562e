import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import { AppError } from '../../errors.js';
import { requireDomain } from '../domains/domain-scope.js';
import { deleteRange, insertRange, lastSeqOf, listRanges, seqRangeOfTimes, type QuarantineRange } from './consent-log.quarantine.repository.js';

export type { QuarantineRange };

/**
 * Setting a flood aside (issue #14 point 3, docs/consent-log.md "Setting a flood aside"). The agency names a
 * range of a domain's chain, by chain positions or by time, that holds forged records (the ingest stats show
 * the burst). The records stay in the chain, hashed and verifiable, and in exports; the range is kept beside
 * the chain, and the Domain API leaves its records out of lists and lookups unless asked for them
 * (`quarantined=include`). Lifting a range brings them back. Nothing is deleted, so a mistake costs nothing.
 */
export interface QuarantineInput {
  fromSeq?: number | undefined;
  toSeq?: number | undefined;
  /** Unix seconds, inclusive: the range is the first and last record written in this time. */
  from?: number | undefined;
  to?: number | undefined;
  reason: string;
}

export async function quarantine(deps: Deps, clientId: string, domainId: string, input: QuarantineInput): Promise<QuarantineRange> {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  const bySeq = input.fromSeq !== undefined || input.toSeq !== undefined;
  const byTime = input.from !== undefined || input.to !== undefined;
  if (bySeq === byTime) throw invalid('body', 'give either fromSeq and toSeq, or from and to (Unix seconds)');
  let fromSeq: number;
  let toSeq: number;
  if (bySeq) {
    if (input.fromSeq === undefined || input.toSeq === undefined) throw invalid('body', 'fromSeq and toSeq go together');
    ({ fromSeq, toSeq } = { fromSeq: input.fromSeq, toSeq: input.toSeq });
    if (fromSeq > toSeq) throw invalid('body.toSeq', 'must not be below fromSeq');
    const last = await lastSeqOf(deps.db, domainId);
    if (toSeq > last) throw invalid('body.toSeq', `the chain ends at ${last}: only written records can be set aside`);
  } else {
    if (input.from === undefined || input.to === undefined) throw invalid('body', 'from and to go together');
    if (input.from > input.to) throw invalid('body.to', 'must not be before from');
    const range = await seqRangeOfTimes(deps.db, domainId, input.from, input.to);
    if (!range) throw invalid('body.from', 'no record of the domain was written in this time');
    ({ from: fromSeq, to: toSeq } = range);
  }
  const range: QuarantineRange = { id: deps.ids.shortId(), fromSeq, toSeq, reason: input.reason, createdAt: isoNow(deps.clock) };
  await insertRange(deps.db, domainId, range);
  deps.log.info({ domainId, fromSeq, toSeq }, 'consent log range quarantined');
  return range;
}

export async function listQuarantine(deps: Deps, clientId: string, domainId: string): Promise<QuarantineRange[]> {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  return listRanges(deps.db, domainId);
}

export async function liftQuarantine(deps: Deps, clientId: string, domainId: string, id: string): Promise<void> {
  await requireDomain(deps.db, deps.engine, clientId, domainId);
  if (!(await deleteRange(deps.db, domainId, id))) throw new AppError('QUARANTINE_NOT_FOUND');
  deps.log.info({ domainId, id }, 'consent log quarantine lifted');
}

/**
 * The Domain API's filter: whether a chain position lies in one of the domain's ranges. Read once per
 * request (a domain has a handful of ranges at most); called per record.
 */
export async function quarantineFilter(deps: Deps, domainId: string): Promise<((seq: number) => boolean) | undefined> {
  const ranges = await listRanges(deps.db, domainId);
  if (ranges.length === 0) return undefined;
  return (seq) => ranges.some((r) => seq >= r.fromSeq && seq <= r.toSeq);
}

const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', [{ field, message }]);
