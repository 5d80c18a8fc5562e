import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';

/**
 * Signed checkpoints (docs/consent-log.md, "Checkpoints"): Placet's Ed25519 signature over a domain's chain
 * head. The private key never enters the database: it comes from CONSENT_LOG_SIGNING_KEY, or from the key
 * file, which is generated with mode 0600 on first start. Someone who can rewrite the database but cannot
 * read the key cannot sign a rewritten chain.
 */
export interface Checkpoint {
  domainId: string;
  seq: number;
  headHash: string;
  /** Unix seconds. */
  signedAt: number;
}

/**
 * The signed text: fixed key order, no whitespace. Rebuild it from the four fields to check a signature
 * anywhere (scripts/verify-consent-export.mjs, or openssl pkeyutl -verify -rawin).
 */
export function checkpointMessage(c: Checkpoint): string {
  return `{"domain":${JSON.stringify(c.domainId)},"seq":${c.seq},"headHash":${JSON.stringify(c.headHash)},"signedAt":${c.signedAt}}`;
}

export interface CheckpointSigner {
  /** First 16 bytes (32 hex) of the SHA-256 of the raw 32-byte public key. */
  readonly keyId: string;
  /** SubjectPublicKeyInfo PEM: give it to site owners, it checks every signature. */
  readonly publicKeyPem: string;
  /** base64url signature of the checkpoint's message. */
  sign(c: Checkpoint): string;
  /** Whether `signature` is this key's signature of the checkpoint. */
  verify(c: Checkpoint, signature: string): boolean;
}

export function signerFromPrivateKey(privateKey: KeyObject): CheckpointSigner {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the consent-log signing key must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return {
    keyId: createHash('sha256').update(raw).digest('hex').slice(0, 32),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    sign: (c) => sign(null, Buffer.from(checkpointMessage(c)), privateKey).toString('base64url'),
    verify: (c, signature) => {
      const bytes = Buffer.from(signature, 'base64url');
      return bytes.length === 64 && verify(null, Buffer.from(checkpointMessage(c)), publicKey, bytes);
    },
  };
}

const signers = new WeakMap<object, CheckpointSigner>();

/**
 * The process's signer: from CONSENT_LOG_SIGNING_KEY, else from the key file, which is created (0600,
 * folder 0700) when it does not exist. Two processes starting together on one machine both end up with
 * the file's key (exclusive create; the loser reads it). Processes on several machines must be given the
 * same key (the variable, or a copy of the file): a checkpoint signed by another key is reported by
 * verify as signed by an unknown key.
 */
export function checkpointSigner(config: Pick<Config, 'checkpoints'>): CheckpointSigner {
  let signer = signers.get(config.checkpoints);
  if (!signer) {
    signer = signerFromPrivateKey(createPrivateKey(config.checkpoints.signingKey ?? keyFromFile(config.checkpoints.signingKeyFile)));
    signers.set(config.checkpoints, signer);
  }
  return signer;
}

function keyFromFile(file: string): string {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      fs.writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return fs.readFileSync(file, 'utf8');
}
