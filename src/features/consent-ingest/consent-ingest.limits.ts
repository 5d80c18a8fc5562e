import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { WindowLimiter, addressKey, exemptAddresses } from '../../plugins/rate-limiter.js';

/**
 * The limits of POST /public/consent (README "Security model"), checked in the handler before a request is
 * queued: per source address and minute, then (after the token) per domain and minute and per ucid and hour. Each counts only requests
 * that passed the limits before it, so a refused flood does not use up a real visitor's ucid allowance.
 * In-memory and per process: N processes let through at most N times each limit (docs/consent-log.md).
 */
export class ConsentLimits {
  private readonly perAddress: WindowLimiter;
  private readonly perDomain: WindowLimiter;
  private readonly perUcid: WindowLimiter;
  private readonly exempt: (ip: string) => boolean;

  constructor(deps: Deps) {
    const { limits } = deps.config;
    const on = (n: number) => (limits.enabled ? n : 0);
    this.perAddress = new WindowLimiter(on(limits.consentPerAddressPerMinute), 60_000, deps.clock);
    this.perDomain = new WindowLimiter(on(limits.consentPerDomainPerMinute), 60_000, deps.clock, 20_000);
    this.perUcid = new WindowLimiter(on(limits.consentPerUcidPerHour), 3_600_000, deps.clock, 200_000);
    this.exempt = exemptAddresses(limits);
  }

  /** Throws 429 RATE_LIMITED (details carry `retryAfter` seconds) when the address's limit is used up. */
  checkAddress(ip: string): void {
    if (this.perAddress.active && !this.exempt(ip)) refuse('address', this.perAddress.hit(addressKey(ip)));
  }

  /**
   * The same for the domain's and the ucid's limits; called after the token check, so requests without a
   * valid widget token never use up a domain's or a visitor's allowance.
   */
  checkDomainAndUcid(domainId: string, ucid: string): void {
    refuse('body.domain', this.perDomain.hit(domainId));
    refuse('body.ucid', this.perUcid.hit(`${domainId}|${ucid}`));
  }
}

const WHAT = { address: 'your address', 'body.domain': 'this domain', 'body.ucid': 'this ucid' } as const;

function refuse(field: keyof typeof WHAT, retryAfter: number): void {
  if (retryAfter === 0) return;
  throw new AppError('RATE_LIMITED', [{ field, message: `too many consents from ${WHAT[field]}; retry later`, retryAfter }]);
}

/** The Retry-After of a RATE_LIMITED error made above (or by the queue bound), in seconds. */
export function retryAfterOf(error: AppError): number | undefined {
  const value = error.details?.[0]?.retryAfter;
  return typeof value === 'number' ? value : undefined;
}
