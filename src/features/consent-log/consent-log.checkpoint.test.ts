import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { checkpointMessage, checkpointSigner } from './consent-log.checkpoint.js';

describe('consent-log signing key', () => {
  const checkpoint = { domainId: 'abcdef0', seq: 7, headHash: 'a'.repeat(64), signedAt: 1_780_000_000 };

  it('is generated on first start into the key file with mode 0600, and read from it afterwards', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-key-'));
    const file = path.join(dir, 'data', 'consent-log-signing-key.pem');
    const config = loadConfig({ CONSENT_LOG_SIGNING_KEY_FILE: file }, dir);
    const signer = checkpointSigner(config);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const again = checkpointSigner(loadConfig({ CONSENT_LOG_SIGNING_KEY_FILE: file }, dir));
    expect(again.keyId).toBe(signer.keyId);
    const signature = signer.sign(checkpoint);
    expect(again.verify(checkpoint, signature)).toBe(true);
    expect(again.verify({ ...checkpoint, seq: 8 }, signature)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('comes from CONSENT_LOG_SIGNING_KEY (PEM, \\n escapes allowed) without touching the file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-key-'));
    const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const config = loadConfig({ CONSENT_LOG_SIGNING_KEY: key.replace(/\n/g, '\\n'), CONSENT_LOG_SIGNING_KEY_FILE: path.join(dir, 'k.pem') }, dir);
    const signer = checkpointSigner(config);
    expect(fs.existsSync(path.join(dir, 'k.pem'))).toBe(false);
    expect(signer.verify(checkpoint, signer.sign(checkpoint))).toBe(true);
    expect(() => loadConfig({ CONSENT_LOG_SIGNING_KEY: 'not a key' }, dir)).toThrow(/CONSENT_LOG_SIGNING_KEY/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs a fixed-order message anyone can rebuild', () => {
    expect(checkpointMessage(checkpoint)).toBe(`{"domain":"abcdef0","seq":7,"headHash":"${'a'.repeat(64)}","signedAt":1780000000}`);
  });
});
