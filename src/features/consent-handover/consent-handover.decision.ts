import type { Deps } from '../../deps.js';
import { quarantineFilter } from '../consent-log/consent-log.quarantine.js';
import { findHead, recordsOfUcid } from '../consent-log/consent-log.repository.js';
import { parseCanonicalRecord, type ConsentRecord } from '../consent-log/consent-log.record.js';
import type { DomainSettings } from '../domains/domains.schemas.js';

// What a hand-over carries, read from the log: a ucid's latest decision and whether it is still valid.
// Placet, not the page, says what the decision is and when it was made.

/** Blocks of the log, newest first, searched for a ucid's latest decision. */
export const MAX_BLOCKS_SEARCHED = 16;
/** A decision of a domain whose lifetime is 0 ("until the browser closes") is handed over for a day at most. */
const SESSION_LIFETIME_DAYS = 1;

/** The decision a token carries, as the log holds it (stored as JSON in the token's row). */
export interface HandoverDecision {
  consent: boolean;
  embeddings: string[];
  /** Unix seconds of the ucid's newest record that is not itself a hand-over: when the visitor decided. */
  decidedAt: number;
  /** The legal revision that decision was made under. */
  legalRevision: number;
  manipulationPrevention: boolean;
}

/**
 * The ucid's latest decision in the domain's log (records set aside in quarantine left out), or undefined when
 * the reachable blocks hold none. The content is the newest record's; the time and legal revision are those
 * of the newest record that is not a hand-over, so handing a decision on and on never makes it younger.
 */
export async function latestDecision(deps: Deps, domainId: string, ucid: string): Promise<HandoverDecision | undefined> {
  const head = await findHead(deps.db, domainId);
  if (!head) return undefined;
  // Records the agency set aside as a flood (consent-log quarantine) are no decision of anyone's.
  const quarantined = await quarantineFilter(deps, domainId);
  let newest: ConsentRecord | undefined;
  for (let block = head.blockNo; block >= 1 && block > head.blockNo - MAX_BLOCKS_SEARCHED; block--) {
    for (const { record: text, seq } of await recordsOfUcid(deps.db, domainId, block, ucid)) {
      const record = parseCanonicalRecord(text);
      if (!record || quarantined?.(seq)) continue;
      newest ??= record;
      if (record.button === 'handover') continue;
      return {
        consent: newest.consent,
        embeddings: Object.keys(newest.embeddings).sort(),
        decidedAt: record.timestamp,
        legalRevision: record.legalRevision,
        manipulationPrevention: record.manipulationPrevention,
      };
    }
  }
  return undefined;
}

/** Why a decision may no longer be handed over, if it may not. */
export function voidReason(
  decision: Pick<HandoverDecision, 'decidedAt' | 'legalRevision'>,
  settings: Pick<DomainSettings, 'consentCookieLifetime' | 'consentResetBeforeDate' | 'consentResetOnLegalChange'>,
  currentLegalRevision: number,
  now: number,
): string | undefined {
  if (decision.decidedAt > now + 60) return 'the decision is dated in the future';
  const days = settings.consentCookieLifetime || SESSION_LIFETIME_DAYS;
  if (decision.decidedAt + days * 86_400 <= now) return "the decision is older than the domain's consent lifetime";
  const reset = settings.consentResetBeforeDate;
  if (reset && decision.decidedAt * 1000 < Date.parse(`${reset}T00:00:00Z`)) return 'the decision predates consentResetBeforeDate';
  if (settings.consentResetOnLegalChange && decision.legalRevision !== currentLegalRevision) {
    return 'the legal revision changed since the decision';
  }
  return undefined;
}

export const sameDecision = (a: Pick<HandoverDecision, 'consent' | 'embeddings'>, consent: boolean, embeddings: readonly string[]) => {
  const ids = [...new Set(embeddings)].sort();
  return a.consent === consent && a.embeddings.length === ids.length && a.embeddings.every((id, i) => id === ids[i]);
};
