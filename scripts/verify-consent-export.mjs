#!/usr/bin/env node
/**
 * Checks one exported consent-log block without Placet and without its database (docs/consent-log.md,
 * "Checking an export offline"). Plain Node (18+), no dependencies:
 *
 *   node scripts/verify-consent-export.mjs block.ndjson[.gz] [--public-key placet.pem] [--checkpoint SEQ:HEADHASH]
 *
 * It checks that every snapshot hashes to its key, that each record's hash is SHA-256(prevHash + record)
 * and each prevHash the hash of the line before, that every record's snapshot is in the export, that the
 * closing checkpoint names the last record's position and hash and carries a valid Ed25519 signature
 * (of the key given with --public-key, which you got from Placet beforehand; without it, of the key in the
 * export, which only proves consistency), and that a checkpoint you kept matches. Prints a JSON summary;
 * exit status 0 when everything holds, 1 otherwise, 2 on a usage error.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Buffer } from 'node:buffer';

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

function parseArgs(argv) {
  const args = { file: undefined, publicKey: undefined, kept: undefined };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--public-key') args.publicKey = fs.readFileSync(argv[++i], 'utf8');
    else if (argv[i] === '--checkpoint') {
      const [seq, headHash] = String(argv[++i]).split(':');
      args.kept = { seq: Number(seq), headHash };
    } else args.file = argv[i];
  }
  return args;
}

export function verifyExport(text, { publicKey, kept } = {}) {
  const problems = [];
  const snapshots = new Map();
  let checkpoint;
  let previous;
  let records = 0;
  let keptMatches = false;
  const lines = text.split('\n').filter((l) => l !== '');
  lines.forEach((line, index) => {
    const at = `line ${index + 1}`;
    let parsed;
    try {
      parsed = JSON.parse(line);
    } catch {
      problems.push(`${at}: not JSON`);
      return;
    }
    if (typeof parsed.snapshot === 'string' && typeof parsed.config === 'string') {
      if (sha256(parsed.config) !== parsed.snapshot) problems.push(`${at}: snapshot ${parsed.snapshot} does not hash to its key`);
      snapshots.set(parsed.snapshot, parsed.config);
    } else if (parsed.checkpoint) {
      checkpoint = parsed.checkpoint;
    } else if (typeof parsed.seq === 'number') {
      // The record exactly as it was hashed: everything after "record": up to the line's closing brace.
      const marker = line.indexOf(',"record":');
      const recordText = line.slice(marker + ',"record":'.length, -1);
      if (previous && parsed.seq !== previous.seq + 1) problems.push(`${at}: seq ${parsed.seq} does not follow ${previous.seq}`);
      if (previous && parsed.prevHash !== previous.hash) problems.push(`${at}: prevHash is not the hash of the line before`);
      if (sha256(parsed.prevHash + recordText) !== parsed.hash) problems.push(`${at}: hash is not SHA-256(prevHash + record)`);
      const name = parsed.record?.snapshot;
      if (name !== undefined && !snapshots.has(name)) problems.push(`${at}: the record's snapshot ${name} is not in the export`);
      if (kept && kept.seq === parsed.seq) {
        if (kept.headHash === parsed.hash) keptMatches = true;
        else problems.push(`${at}: the kept checkpoint's head hash differs from the record's hash at seq ${kept.seq}`);
      }
      previous = parsed;
      records++;
    } else problems.push(`${at}: unknown line`);
  });
  let signature = 'absent';
  if (checkpoint) {
    const message = `{"domain":${JSON.stringify(checkpoint.domainId)},"seq":${checkpoint.seq},"headHash":${JSON.stringify(checkpoint.headHash)},"signedAt":${checkpoint.signedAt}}`;
    if (message !== checkpoint.message) problems.push('checkpoint: its message does not match its fields');
    if (!previous || checkpoint.seq !== previous.seq || checkpoint.headHash !== previous.hash) {
      problems.push("checkpoint: it does not name the last record's position and hash");
    }
    const key = createPublicKey(publicKey ?? checkpoint.publicKey);
    signature = verify(null, Buffer.from(message), key, Buffer.from(checkpoint.signature, 'base64url')) ? 'valid' : 'invalid';
    if (signature === 'invalid') problems.push('checkpoint: the signature is not valid for the public key');
  } else problems.push('no checkpoint line');
  if (kept && !keptMatches && !problems.some((p) => p.includes('kept'))) problems.push(`the export has no record at the kept checkpoint's seq ${kept.seq}`);
  return {
    ok: problems.length === 0,
    records,
    snapshots: snapshots.size,
    firstSeq: records > 0 ? lines.map((l) => JSON.parse(l)).find((l) => typeof l.seq === 'number').seq : null,
    lastSeq: previous?.seq ?? null,
    headHash: previous?.hash ?? null,
    checkpoint: checkpoint ? { seq: checkpoint.seq, keyId: checkpoint.keyId, signature, trustedKey: publicKey !== undefined } : null,
    kept: kept ? { seq: kept.seq, matches: keptMatches } : null,
    problems,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = parseArgs(process.argv.slice(2));
  if (!args.file) {
    console.error('usage: verify-consent-export.mjs block.ndjson[.gz] [--public-key placet.pem] [--checkpoint SEQ:HEADHASH]');
    process.exit(2);
  }
  const raw = fs.readFileSync(args.file);
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
  const summary = verifyExport(text, args);
  console.log(JSON.stringify(summary, null, 2));
  process.exit(summary.ok ? 0 : 1);
}
