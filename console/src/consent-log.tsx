import { useEffect, useState } from 'preact/hooks';
import { hosting } from './api.js';
import type { Ctx } from './main.js';
import { ErrorBox } from './ui.js';

interface Block {
  id: number;
  state: 'open' | 'archived' | 'expired';
  recordCount: number;
  firstTimestamp: number | null;
  lastTimestamp: number | null;
}
interface VerifyResult {
  ok: boolean;
  checkedRecords: number;
  checkedBlocks: number;
  firstMismatch: { seq: number; blockId: number; message: string } | null;
}

const L = {
  en: { title: 'Consent log', block: 'Block', state: 'State', records: 'Records', period: 'Period', download: 'Download', verify: 'Verify the log', ok: (r: VerifyResult) => `The log is intact: ${r.checkedRecords} records in ${r.checkedBlocks} blocks match their hashes.`, bad: (r: VerifyResult) => `The log does not verify: record ${r.firstMismatch?.seq} in block ${r.firstMismatch?.blockId}: ${r.firstMismatch?.message}`, open: 'open', archived: 'archived', expired: 'expired' },
  de: { title: 'Einwilligungsprotokoll', block: 'Block', state: 'Zustand', records: 'Einträge', period: 'Zeitraum', download: 'Herunterladen', verify: 'Protokoll prüfen', ok: (r: VerifyResult) => `Das Protokoll ist unversehrt: ${r.checkedRecords} Einträge in ${r.checkedBlocks} Blöcken passen zu ihren Hashes.`, bad: (r: VerifyResult) => `Das Protokoll ist nicht stimmig: Eintrag ${r.firstMismatch?.seq} in Block ${r.firstMismatch?.blockId}: ${r.firstMismatch?.message}`, open: 'offen', archived: 'archiviert', expired: 'abgelaufen' },
};

const day = (seconds: number | null) => (seconds === null ? '–' : new Date(seconds * 1000).toISOString().slice(0, 10));

/** The domain's consent log: its blocks with an export download each, and verifying the hash chain. */
export function ConsentLogPanel({ ctx, base }: { ctx: Ctx; base: string }) {
  const l = L[ctx.lang];
  const [blocks, setBlocks] = useState<Block[] | null>(null);
  const [result, setResult] = useState<VerifyResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void hosting<Block[]>('GET', `${base}/consent-log/blocks`).then(setBlocks, setError), [base]);
  const verify = async () => {
    setError(null);
    setResult(null);
    try {
      setResult(await hosting<VerifyResult>('GET', `${base}/consent-log/verify`));
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section class="card" aria-labelledby="consent-log">
      <h2 id="consent-log">{l.title}</h2>
      {blocks && (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">{l.title}</caption>
            <thead>
              <tr><th scope="col">{l.block}</th><th scope="col">{l.state}</th><th scope="col">{l.records}</th><th scope="col">{l.period}</th><th scope="col"><span class="sr-only">{l.download}</span></th></tr>
            </thead>
            <tbody>
              {blocks.map((b) => (
                <tr key={b.id}>
                  <th scope="row">{b.id}</th>
                  <td>{l[b.state]}</td>
                  <td>{b.recordCount}</td>
                  <td>{`${day(b.firstTimestamp)} – ${day(b.lastTimestamp)}`}</td>
                  <td>{b.state !== 'expired' && <a href={`../hosting/api${base}/consent-log/blocks/${b.id}/export`} download={`consent-log-block-${b.id}.ndjson`}>{`${l.download} ${l.block.toLowerCase()} ${b.id}`}</a>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <button type="button" onClick={verify}>{l.verify}</button>
      {result && <p role="status" class={result.ok ? 'status' : 'error'}>{result.ok ? l.ok(result) : l.bad(result)}</p>}
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
    </section>
  );
}
