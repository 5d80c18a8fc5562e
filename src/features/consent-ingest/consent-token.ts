import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Db } from '../../db/database.js';
import { getSetting, insertSettingIfAbsent } from '../hosting-auth/hosting-auth.repository.js';

const SECRET_SETTING = 'consent_token_secret';
/** Tokens are issued per hour: every widget body of the hour carries the same one, so caching holds. */
export const TOKEN_PERIOD_SECONDS = 3600;
/** A token "issued" this far in the future (clock skew between processes) is still accepted. */
const FUTURE_SKEW_SECONDS = 300;

export type TokenVerdict = 'ok' | 'missing' | 'invalid' | 'expired';

/**
 * Widget tokens (docs/consent-log.md, "Widget tokens"): HMAC-SHA256 over the domain id, the configuration
 * revision the widget was built from and the issue hour, written into every widget body Placet serves and
 * sent back with each decision. `<issued, base 36>.<first 16 bytes of the MAC, base64url>`, 30 characters.
 */
export class ConsentTokens {
  /** MACs of tokens that verified, by domain, revision and hour: a domain's visitors share one token an hour. */
  private readonly verified = new Map<string, Buffer>();

  constructor(
    private readonly secret: Buffer,
    private readonly ttlSeconds: number,
  ) {}

  /** The issue time of a token made at `nowSeconds`: the start of its hour. */
  static issueTime(nowSeconds: number): number {
    return nowSeconds - (nowSeconds % TOKEN_PERIOD_SECONDS);
  }

  mint(domainId: string, revision: number, issued: number): string {
    return `${issued.toString(36)}.${this.mac(domainId, revision, issued).toString('base64url')}`;
  }

  verify(token: string | undefined, domainId: string, revision: number, nowSeconds: number): TokenVerdict {
    if (token === undefined || token === '') return 'missing';
    const match = /^([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/.exec(token);
    if (!match) return 'invalid';
    const issued = parseInt(match[1]!, 36);
    const presented = Buffer.from(match[2]!, 'base64url');
    const key = `${domainId}:${revision}:${issued}`;
    const expected = this.verified.get(key) ?? this.mac(domainId, revision, issued);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return 'invalid';
    // Only MACs that matched are kept (so forged tokens cannot fill the map), at most 10000 of them.
    if (!this.verified.has(key)) {
      if (this.verified.size >= 10_000) this.verified.clear();
      this.verified.set(key, expected);
    }
    if (issued > nowSeconds + FUTURE_SKEW_SECONDS) return 'invalid';
    return nowSeconds - issued > this.ttlSeconds ? 'expired' : 'ok';
  }

  private mac(domainId: string, revision: number, issued: number): Buffer {
    return createHmac('sha256', this.secret).update(`placet-consent-token:1:${domainId}:${revision}:${issued}`).digest().subarray(0, 16);
  }
}

/**
 * The tokens of this installation: the secret is CONSENT_TOKEN_SECRET, else one generated on first start
 * and kept in the settings table (every process reads the same one; the first to start writes it).
 */
export async function loadConsentTokens(db: Db, config: Config): Promise<ConsentTokens> {
  let secret = config.consentToken.secret;
  if (secret === undefined) {
    await insertSettingIfAbsent(db, SECRET_SETTING, randomBytes(32).toString('hex'));
    secret = await getSetting(db, SECRET_SETTING);
    if (secret === undefined) throw new Error('the consent token secret could not be stored');
  }
  return new ConsentTokens(Buffer.from(secret, 'utf8'), config.consentToken.ttlHours * 3600);
}

/** Throws 403 CONSENT_TOKEN_INVALID or CONSENT_TOKEN_EXPIRED unless the body carries a valid token. */
export function checkToken(tokens: ConsentTokens, body: { token?: string | undefined; domain: string; revision: number }, nowSeconds: number): void {
  const verdict = tokens.verify(body.token, body.domain, body.revision, nowSeconds);
  if (verdict === 'ok') return;
  const message = {
    missing: 'no token: send the token of the widget Placet served (docs/consent-log.md)',
    invalid: 'the token was not issued by this Placet for this domain and revision',
    expired: 'the token expired; reload the page',
  }[verdict];
  throw new AppError(verdict === 'expired' ? 'CONSENT_TOKEN_EXPIRED' : 'CONSENT_TOKEN_INVALID', [{ field: 'body.token', message }]);
}
