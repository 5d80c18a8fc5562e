import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A fresh self-signed certificate for localhost/127.0.0.1 (Debian's openssl), written to dir; returns its SHA-256 fingerprint. */
export function writeSelfSignedCert(dir: string, name = 'tls'): { certFile: string; keyFile: string; fingerprint: string } {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { certFile, keyFile, fingerprint: new X509Certificate(fs.readFileSync(certFile)).fingerprint256 };
}
