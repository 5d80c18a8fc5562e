import { parseFeatures } from '../clients/clients.service.js';
import type { Deps } from '../../deps.js';
import { sha256Hex } from '../../deps.js';
import { AppError } from '../../errors.js';
import { checkOrigin } from '../consent-ingest/consent-ingest.service.js';
import { checkToken, type ConsentTokens } from '../consent-ingest/consent-token.js';
import type { ConsentWriter } from '../consent-ingest/consent-ingest.queue.js';
import { pageMatchesDomain } from '../domains/domain-name.js';
import { parseSettings } from '../domains/domains.service.js';
import type { DomainSettings } from '../domains/domains.schemas.js';
import {
  consumeToken,
  countIssuedFrom,
  countLiveFor,
  deleteExpiredTokens,
  embeddingIdsOf,
  findHandoverDomain,
  insertToken,
} from './consent-handover.repository.js';
import { latestDecision, sameDecision, voidReason, type HandoverDecision } from './consent-handover.decision.js';
import type { HandedOverDto, IssueInput, RedeemInput } from './consent-handover.schemas.js';
import type { RateWindow } from './rate-window.js';

/** Live (unredeemed, unexpired) tokens one ucid may hold at once. */
export const MAX_LIVE_TOKENS_PER_UCID = 10;

export interface HandoverRequest<T> {
  body: T;
  origin: string | undefined;
  referer: string | undefined;
  /** The client's address (request.ip, which honours TRUST_PROXY). */
  address: string;
}

/** What the routes hold for the service: the per-process rate windows and the widget-token verifier. */
export interface HandoverLimits {
  issue: RateWindow;
  redeem: RateWindow;
  tokens: ConsentTokens;
}

/** `target_origin` of a token asked for without a target (CCM.crossDomainConsentString): any page of the set. */
export const ANY_PAGE_OF_SET = '*';

type Domain = NonNullable<Awaited<ReturnType<typeof findHandoverDomain>>>;

/** A refused call: the error, what to reflect in Access-Control-Allow-Origin, and a Retry-After for a 429. */
export interface Refused {
  ok: false;
  error: AppError;
  allowOrigin?: string | undefined;
  retryAfter?: number;
}
type PageOfSet = { ok: true; domain: Domain; settings: DomainSettings; pageOrigin: string; allowOrigin: string | undefined };
export type Issued = { ok: true; token: string; expiresAt: string; allowOrigin: string | undefined };
export type Redeemed = { ok: true; handedOver: HandedOverDto; allowOrigin: string | undefined };

const refused = (error: AppError, allowOrigin?: string, retryAfter?: number): Refused => ({
  ok: false,
  error,
  allowOrigin,
  ...(retryAfter !== undefined ? { retryAfter } : {}),
});

const unixNow = (deps: Deps) => Math.floor(deps.clock.now().getTime() / 1000);
const invalid = (field: string, message: string) => new AppError('HANDOVER_INVALID', [{ field, message }]);

/**
 * Resolves the domain and the calling page: the domain shares consent across domains and the page (Origin,
 * else Referer) is one of its sharing set. Returns the page's origin.
 */
async function pageOfSet(deps: Deps, apiKey: string, domainId: string, req: HandoverRequest<unknown>): Promise<PageOfSet | Refused> {
  const domain = await findHandoverDomain(deps.db, apiKey, domainId);
  if (!domain) return refused(invalid('body.domain', 'apiKey and domain do not name a domain of a client'));
  const settings = parseSettings(domain.settings);
  if (!settings.consentSharingCrossDomain) {
    return refused(invalid('body.domain', 'the domain does not share consent across domains (consentSharingCrossDomain)'));
  }
  // The client's feature flag turns sharing off without touching the setting (README, "Feature flags").
  if (parseFeatures(domain.features).canUseConsentSharing === false) {
    return refused(invalid('body.domain', "the client's canUseConsentSharing feature is off"));
  }
  const checked = checkOrigin(domain.name, settings.consentSharingDomains, req.origin, req.referer, domain.scheme);
  if (typeof checked !== 'object') return refused(invalid('headers.origin', checked));
  const pageOrigin = new URL((req.origin ?? req.referer)!).origin;
  return { ok: true, domain, settings, pageOrigin, allowOrigin: checked.allowOrigin };
}

function rateLimited(retryAfter: number, allowOrigin?: string): Refused {
  const error = new AppError('RATE_LIMITED', [{ message: 'too many hand-over calls from this address', retryAfter }]);
  return refused(error, allowOrigin, retryAfter);
}


/**
 * Issues a hand-over token for the decision the calling page holds, when it is the ucid's latest logged
 * decision and still valid. The token may be redeemed once, within the configured lifetime, on the
 * target's origin and (by default) from the same address.
 */
export async function issueToken(deps: Deps, limits: HandoverLimits, req: HandoverRequest<IssueInput>): Promise<Issued | Refused> {
  const { body } = req;
  const now = unixNow(deps);
  const retryAfter = limits.issue.hit(req.address, now * 1000);
  if (retryAfter > 0) return rateLimited(retryAfter);
  const page = await pageOfSet(deps, body.apiKey, body.domain, req);
  if (!page.ok) return page;
  const { domain, settings, allowOrigin } = page;
  const targetOrigin = body.target === undefined ? ANY_PAGE_OF_SET : targetOriginIn(body.target, domain, settings, page.pageOrigin);
  if (typeof targetOrigin !== 'string') return refused(targetOrigin, allowOrigin);

  const addressHash = sha256Hex(req.address);
  const { ratePerMinute, tokenTtlSeconds } = deps.config.handover;
  if (ratePerMinute > 0 && (await countIssuedFrom(deps.db, addressHash, now - 60)) >= ratePerMinute) {
    return rateLimited(60, allowOrigin);
  }
  if ((await countLiveFor(deps.db, domain.id, body.ucid, now)) >= MAX_LIVE_TOKENS_PER_UCID) {
    return rateLimited(tokenTtlSeconds, allowOrigin);
  }

  const decision = await latestDecision(deps, domain.id, body.ucid);
  if (!decision || !sameDecision(decision, body.consent, body.embeddings)) {
    return refused(new AppError('HANDOVER_NOT_LOGGED'), allowOrigin);
  }
  const reason = voidReason(decision, settings, domain.legal_revision, now);
  if (reason) return refused(new AppError('HANDOVER_DECISION_VOID', [{ message: reason }]), allowOrigin);

  const token = deps.ids.hex(32);
  const expiresAt = now + tokenTtlSeconds;
  await deleteExpiredTokens(deps.db, now - 60);
  await insertToken(deps.db, {
    token_hash: sha256Hex(token),
    domain_id: domain.id,
    ucid: body.ucid,
    target_origin: targetOrigin,
    address_hash: addressHash,
    decision: JSON.stringify(decision),
    issued_at: now,
    expires_at: expiresAt,
    redeemed_at: null,
  });
  return { ok: true, token, expiresAt: new Date(expiresAt * 1000).toISOString(), allowOrigin };
}

function targetOriginIn(target: string, domain: Domain, settings: DomainSettings, pageOrigin: string): string | AppError {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return invalid('body.target', 'must be an absolute http(s) URL');
  }
  if (!pageMatchesDomain(url, domain.name, settings.consentSharingDomains)) {
    return invalid('body.target', "must be a page of the domain's sharing set");
  }
  if (url.origin === pageOrigin) return invalid('body.target', 'must be another origin than the calling page');
  return url.origin;
}

/**
 * Redeems a token on the page it was issued for: consumes it (once, in any number of processes), checks
 * that it carries the ucid's latest decision and that this decision is still valid, and logs a `handover`
 * record through the consent write path (validated and chained like any other) before answering.
 */
export async function redeemToken(
  deps: Deps,
  writer: ConsentWriter,
  limits: HandoverLimits,
  req: HandoverRequest<RedeemInput>,
): Promise<Redeemed | Refused> {
  const { body } = req;
  const now = unixNow(deps);
  const retryAfter = limits.redeem.hit(req.address, now * 1000);
  if (retryAfter > 0) return rateLimited(retryAfter);
  const page = await pageOfSet(deps, body.apiKey, body.domain, req);
  if (!page.ok) return page;
  const { domain, settings, allowOrigin } = page;
  const fail = (error: AppError) => refused(error, allowOrigin);

  // The receiving page must carry the token of a widget Placet served it, as every consent does; checked
  // before the hand-over token is consumed, so a page with a stale widget does not burn it.
  if (deps.config.consentToken.required) {
    try {
      checkToken(limits.tokens, body, now);
    } catch (err) {
      return fail(err as AppError);
    }
  }
  await deleteExpiredTokens(deps.db, now - 60);
  const row = await consumeToken(deps.db, sha256Hex(body.handover), domain.id, now);
  if (!row || (row.target_origin !== ANY_PAGE_OF_SET && row.target_origin !== page.pageOrigin)) {
    return fail(new AppError('HANDOVER_TOKEN_INVALID'));
  }
  if (deps.config.handover.bindAddress && row.address_hash !== sha256Hex(req.address)) {
    return fail(new AppError('HANDOVER_TOKEN_INVALID', [{ message: 'the token was issued to another address' }]));
  }
  const issued = JSON.parse(row.decision) as HandoverDecision;
  // The visitor may have decided again since the token was issued: only the latest decision travels.
  const latest = await latestDecision(deps, domain.id, row.ucid);
  if (!latest || !sameDecision(latest, issued.consent, issued.embeddings) || latest.decidedAt !== issued.decidedAt) {
    return fail(new AppError('HANDOVER_NOT_LOGGED'));
  }
  const reason = voidReason(latest, settings, domain.legal_revision, now);
  if (reason) return fail(new AppError('HANDOVER_DECISION_VOID', [{ message: reason }]));
  // A page that holds a decision of another ucid keeps it when that one is as new (the log orders the
  // decisions of one ucid, so a page of the same ucid always takes the log's latest).
  if (body.held && body.held.ucid !== row.ucid && latest.decidedAt * 1000 <= body.held.updated) {
    return fail(new AppError('HANDOVER_NOT_NEWER'));
  }

  // Embeddings deleted since the decision are dropped: the record names only what the domain has.
  const existing = await embeddingIdsOf(deps.db, domain.id);
  const embeddings = latest.embeddings.filter((id) => existing.has(id));
  const outcome = await writer.submit({
    body: {
      apiKey: body.apiKey,
      domain: domain.id,
      ucid: row.ucid,
      consent: latest.consent,
      embeddings,
      manipulationPrevention: latest.manipulationPrevention,
      button: 'handover',
      lang: body.lang,
      revision: body.revision,
      legalRevision: body.legalRevision,
      snapshot: body.snapshot,
      ...(body.token !== undefined ? { token: body.token } : {}),
      ...(body.themeId !== undefined ? { themeId: body.themeId } : {}),
      ...(body.gpc !== undefined ? { gpc: body.gpc } : {}),
      ...(body.dnt !== undefined ? { dnt: body.dnt } : {}),
    },
    origin: req.origin,
    referer: req.referer,
    ts: now,
  });
  if (!outcome.ok) return fail(outcome.error);
  const decidedAt = new Date(latest.decidedAt * 1000).toISOString();
  const handedOver: HandedOverDto = {
    ucid: row.ucid,
    consent: latest.consent,
    embeddings,
    created: decidedAt,
    updated: decidedAt,
    legalRevision: latest.legalRevision,
  };
  return { ok: true, handedOver, allowOrigin };
}
