import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { domainApi, hosting } from './api.js';
import type { TextKey } from './i18n.js';
import type { Ctx } from './main.js';
import { ErrorBox, Field, Status } from './ui.js';

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
export function ConsentLogPanel({ ctx, base, domainId }: { ctx: Ctx; base: string; domainId: string }) {
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
        <div class="table-wrap" role="region" tabIndex={0} aria-label={l.title}>
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
      <VisitorShown ctx={ctx} domainId={domainId} />
    </section>
  );
}

/** One decision with what its visitor saw (GET /api/domains/{domainId}/consents/{ucid}/shown). */
interface ShownDecision {
  record: {
    consent: boolean;
    ucid: string;
    timestamp: number;
    purposes: Record<string, string>;
    embeddings: Record<string, string>;
    button?: string;
    lang?: string;
  };
  snapshot: string | null;
  shown: {
    lang: string;
    texts: Record<string, string>;
    purposes: { id: string; name: string; description: string }[];
    embeddings: { id: string; purpose: string; name: string; vendor: string; description: string }[];
    legalLinks: unknown;
    theme: unknown;
  } | null;
}

const time = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The buttons a record can name (consent-log.record.ts), each with a text `btn_…` in i18n.ts. */
const BUTTONS = ['acceptAll', 'declineAll', 'save', 'acceptEmbedding', 'close', 'api'];

/** The banner texts worth showing next to a decision, in the order the banner shows them. */
const BANNER_TEXTS: [string, TextKey][] = [
  ['widgetTitle', 'shownBannerTitle'],
  ['widgetIntroText', 'shownIntro'],
  ['widgetFullConsentButtonText', 'shownAcceptAllText'],
  ['widgetDeclineButtonText', 'shownDeclineText'],
  ['widgetSettingsButtonText', 'shownSettingsText'],
];

/**
 * "What this visitor saw": every decision of one ucid (or a unique beginning of one) in the current block,
 * each with the banner texts, purposes and embeddings of its snapshot in the language of the decision. The
 * Domain API needs the client's Domain API key, which the console does not hold: it is asked for here and
 * kept only in this component's state. Texts are rendered as text, never as HTML.
 */
function VisitorShown({ ctx, domainId }: { ctx: Ctx; domainId: string }) {
  const { t } = ctx;
  const [key, setKey] = useState('');
  const [ucid, setUcid] = useState('');
  const [decisions, setDecisions] = useState<ShownDecision[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const lookup = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setDecisions(null);
    setStatus('');
    try {
      setDecisions(await domainApi<ShownDecision[]>(`/domains/${encodeURIComponent(domainId)}/consents/${encodeURIComponent(ucid.trim())}/shown`, key.trim()));
    } catch (err) {
      setError(err);
    }
  };
  const copy = async (hash: string) => {
    await navigator.clipboard.writeText(hash);
    setStatus(t('copied'));
  };
  const button = (b: string | undefined) => (b && BUTTONS.includes(b) ? t(`btn_${b}` as TextKey) : (b ?? '–'));
  return (
    <div class="shown">
      <form onSubmit={lookup} aria-labelledby="shown-title">
        <h3 id="shown-title">{t('shownTitle')}</h3>
        <p class="help">{t('shownHelp')}</p>
        <div class="grid">
          <Field label={t('shownKey')} help={t('shownKeyHelp')}>
            {(id, described) => <input id={id} type="password" required autoComplete="off" aria-describedby={described} value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
          </Field>
          <Field label={t('shownUcid')} help={t('shownUcidHelp')}>
            {(id, described) => (
              <input id={id} required pattern="[0-9a-fA-F]{1,64}" maxLength={64} spellcheck={false} autoComplete="off" aria-describedby={described} value={ucid} onInput={(e) => setUcid(e.currentTarget.value)} />
            )}
          </Field>
        </div>
        <button type="submit">{t('shownLookup')}</button>
      </form>
      <ErrorBox error={error} title={t('errorTitle')} />
      {status && <Status text={status} />}
      {decisions && decisions.length === 0 && <p role="status">{t('shownNone')}</p>}
      {decisions?.map((d, i) => {
        const id = `shown-${i}`;
        const accepted = new Set(Object.keys(d.record.embeddings));
        const legal = Array.isArray(d.shown?.legalLinks) ? (d.shown.legalLinks as [string, boolean, boolean][]) : [];
        const purposeName = (pid: string) => d.shown?.purposes.find((p) => p.id === pid)?.name || pid;
        return (
          <article class="decision" aria-labelledby={id} key={`${d.record.ucid}-${d.record.timestamp}-${i}`}>
            <h4 id={id}>{`${t('shownDecision')} ${time(d.record.timestamp)}`}</h4>
            <dl class="facts">
              <dt>ucid</dt>
              <dd><code class="key">{d.record.ucid}</code></dd>
              <dt>{t('shownButton')}</dt>
              <dd>{button(d.record.button)}</dd>
              <dt>{t('shownConsent')}</dt>
              <dd>{d.record.consent ? t('shownYes') : t('shownNo')}</dd>
              <dt>{t('shownAcceptedEmbeddings')}</dt>
              <dd>{Object.values(d.record.embeddings).join(', ') || t('shownNothing')}</dd>
              <dt>{t('shownAcceptedPurposes')}</dt>
              <dd>{Object.values(d.record.purposes).join(', ') || t('shownNothing')}</dd>
              <dt>{t('shownSnapshot')}</dt>
              <dd>
                {d.snapshot ? (
                  <>
                    <code title={d.snapshot}>{d.snapshot.slice(0, 12)}</code>{' '}
                    <button type="button" class="link" aria-label={`${t('shownCopyHash')} ${d.snapshot.slice(0, 12)}`} onClick={() => void copy(d.snapshot!)}>{t('copy')}</button>
                  </>
                ) : '–'}
              </dd>
              {d.shown && (
                <>
                  <dt>{t('shownLang')}</dt>
                  <dd><code>{d.shown.lang}</code></dd>
                </>
              )}
            </dl>
            {!d.shown ? (
              <p>{t('shownNoSnapshot')}</p>
            ) : (
              <>
                <h5>{t('shownTexts')}</h5>
                <dl class="facts" lang={d.shown.lang}>
                  {BANNER_TEXTS.filter(([k]) => d.shown!.texts[k]).map(([k, label]) => (
                    <Fragment key={k}>
                      <dt lang={ctx.lang}>{t(label)}</dt>
                      <dd class="shown-text">{d.shown!.texts[k]}</dd>
                    </Fragment>
                  ))}
                </dl>
                <h5>{t('shownPurposes')}</h5>
                <ul class="list" lang={d.shown.lang}>
                  {d.shown.purposes.map((p) => (
                    <li key={p.id}>
                      <strong>{p.name || p.id}</strong>
                      {p.id in d.record.purposes && <span lang={ctx.lang}>{` (${t('shownAccepted')})`}</span>}
                      {p.description && <span class="shown-text">{`: ${p.description}`}</span>}
                    </li>
                  ))}
                </ul>
                <h5>{t('shownEmbeddings')}</h5>
                {d.shown.embeddings.length === 0 ? (
                  <p>{t('shownNothing')}</p>
                ) : (
                  <ul class="list" lang={d.shown.lang}>
                    {d.shown.embeddings.map((em) => (
                      <li key={em.id}>
                        <strong>{em.name || em.id}</strong>
                        {accepted.has(em.id) && <span lang={ctx.lang}>{` (${t('shownAccepted')})`}</span>}
                        <span lang={ctx.lang}>{` – ${t('shownPurpose')}: `}</span>{purposeName(em.purpose)}
                        {em.vendor && <><span lang={ctx.lang}>{`; ${t('shownVendor')}: `}</span>{em.vendor}</>}
                        {em.description && <div class="shown-text">{em.description}</div>}
                      </li>
                    ))}
                  </ul>
                )}
                {legal.length > 0 && (
                  <>
                    <h5>{t('shownLegalLinks')}</h5>
                    <ul class="list">
                      {legal.map(([field, direct, newTab]) => (
                        <li key={field}>
                          <span lang={d.shown!.lang}>{d.shown!.texts[field] || field}</span>
                          {': '}
                          <code class="key">{d.shown!.texts[`${field}Url`] || '–'}</code>
                          {direct && ` (${t('shownInWidget')})`}
                          {newTab && ` (${t('shownNewTab')})`}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </>
            )}
          </article>
        );
      })}
    </div>
  );
}
