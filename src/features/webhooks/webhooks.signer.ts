import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signatures as the Standard Webhooks specification defines them (https://www.standardwebhooks.com), so a
 * receiver can use any of its libraries: `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the `whsec_` secret.
 */
export const SECRET_PREFIX = 'whsec_';

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** `body` as the bytes sent: a Buffer is hashed as it is, without building the signed string. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string | Buffer): SignedHeaders {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.`, 'utf8').update(body).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${mac}` };
}

/**
 * What a receiver does (also used by the tests): recompute the signature, compare in constant time, and
 * refuse timestamps more than `toleranceSeconds` away from now (replays).
 */
export function verify(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sig = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') return false;
  const timestamp = Number(ts);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(sign(secret, id, timestamp, body)['webhook-signature']);
  return sig.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
