/** Types of scripts/verify-consent-export.mjs, for the test that runs it. */
export interface ExportSummary {
  ok: boolean;
  records: number;
  snapshots: number;
  firstSeq: number | null;
  lastSeq: number | null;
  headHash: string | null;
  checkpoint: { seq: number; keyId: string; signature: 'valid' | 'invalid' | 'absent'; trustedKey: boolean } | null;
  kept: { seq: number; matches: boolean } | null;
  problems: string[];
}

export function verifyExport(text: string, options?: { publicKey?: string; kept?: { seq: number; headHash: string } }): ExportSummary;
