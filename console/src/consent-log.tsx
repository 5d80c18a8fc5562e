import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { domainApi, domainApiPage, hosting, type Answer } from './api.js';
import type { TextKey } from './i18n.js';
import type { Ctx } from './main.js';
import { ErrorBox, Field, Status, useAction } from './ui.js';

type Block = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/consent-log/blocks'>[number];
type VerifyResult = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/consent-log/verify'>;

const L = {
  en: { title: 'Consent log', block: 'Block', state: 'State', records: 'Records', period: 'Period', download: 'Download', verify: 'Verify the log', ok: (r: VerifyResult) => `The log is intact: ${r.checkedRecords} records in ${r.checkedBlocks} blocks match their hashes.`, bad: (r: VerifyResult) => `The log does not verify: record ${r.firstMismatch?.seq} in block ${r.firstMismatch?.blockId}: ${r.firstMismatch?.message}`, open: 'open', archived: 'archived', expired: 'expired',
    archive: 'Archive the open block', archiveAsk: (n: number) => `Archive the open block with ${n} records? Its records leave the Domain API (lists and lookups) but are kept, exported and verified like any block; new decisions go into a new block.`, archiveNow: 'Archive now', cancel: 'Cancel', archivedDone: (id: number) => `Block ${id} is archived.`,
    apiTitle: 'Records (Domain API)', apiHelp: 'The current block\'s records, a visitor\'s history and what they saw come from the Domain API, which answers to the client\'s Domain API key, not to your sign-in. The key is kept only in this page\'s memory.',
    current: 'Show the current block\'s records', more: 'Show more records', none: 'No records in the current block.', time: 'Time', consent: 'Consent', button: 'Button', embeddings: 'Accepted embeddings', shown: 'What they saw', shownFor: 'What this visitor saw', history: 'Show this visitor\'s records', historyTitle: 'Records of this visitor', historyNone: 'No records of this visitor in the current block (or the beginning fits more than one visitor).', yes: 'yes', no: 'no', shownRows: 'records shown' },
  de: { title: 'Einwilligungsprotokoll', block: 'Block', state: 'Zustand', records: 'Einträge', period: 'Zeitraum', download: 'Herunterladen', verify: 'Protokoll prüfen', ok: (r: VerifyResult) => `Das Protokoll ist unversehrt: ${r.checkedRecords} Einträge in ${r.checkedBlocks} Blöcken passen zu ihren Hashes.`, bad: (r: VerifyResult) => `Das Protokoll ist nicht stimmig: Eintrag ${r.firstMismatch?.seq} in Block ${r.firstMismatch?.blockId}: ${r.firstMismatch?.message}`, open: 'offen', archived: 'archiviert', expired: 'abgelaufen',
    archive: 'Offenen Block archivieren', archiveAsk: (n: number) => `Den offenen Block mit ${n} Einträgen archivieren? Seine Einträge verlassen die Domain-API (Listen und Abfragen), bleiben aber erhalten und lassen sich wie jeder Block exportieren und prüfen; neue Entscheidungen kommen in einen neuen Block.`, archiveNow: 'Jetzt archivieren', cancel: 'Abbrechen', archivedDone: (id: number) => `Block ${id} ist archiviert.`,
    apiTitle: 'Einträge (Domain-API)', apiHelp: 'Die Einträge des aktuellen Blocks, der Verlauf eines Besuchers und was er gesehen hat, kommen aus der Domain-API. Sie antwortet auf den Domain-API-Schlüssel des Kunden, nicht auf Ihre Anmeldung. Der Schlüssel bleibt nur im Speicher dieser Seite.',
    current: 'Einträge des aktuellen Blocks zeigen', more: 'Weitere Einträge zeigen', none: 'Keine Einträge im aktuellen Block.', time: 'Zeit', consent: 'Einwilligung', button: 'Schaltfläche', embeddings: 'Akzeptierte Einbindungen', shown: 'Was er sah', shownFor: 'Was dieser Besucher gesehen hat', history: 'Einträge dieses Besuchers zeigen', historyTitle: 'Einträge dieses Besuchers', historyNone: 'Keine Einträge dieses Besuchers im aktuellen Block (oder der Anfang passt zu mehr als einem Besucher).', yes: 'ja', no: 'nein', shownRows: 'Einträge angezeigt' },
};

const day = (seconds: number | null) => (seconds === null ? '–' : new Date(seconds * 1000).toISOString().slice(0, 10));

/** The domain's consent log: its blocks with an export download each, and verifying the hash chain. */
export function ConsentLogPanel({ ctx, base, domainId }: { ctx: Ctx; base: string; domainId: string }) {
  const l = L[ctx.lang];
  const [blocks, setBlocks] = useState<Block[] | null>(null);
  const [result, setResult] = useState<VerifyResult | null>(null);
  const { act, error, setError, status } = useAction(() => load());
  const [asking, setAsking] = useState(false);
  const [apiKey, setApiKey] = useState('');
  const [shownFor, setShownFor] = useState<{ ucid: string; n: number } | null>(null);
  const load = () => hosting<Block[]>('GET', `${base}/consent-log/blocks`).then(setBlocks, setError);
  useEffect(() => void load(), [base]);
  const open = blocks?.find((b) => b.state === 'open');
  const archive = () => act(() => hosting<Block>('POST', `${base}/consent-log/archive`), (done) => l.archivedDone(done.id), () => setAsking(false));
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
      <div class="actions">
        <button type="button" onClick={verify}>{l.verify}</button>
        {open && !asking && <button type="button" onClick={() => setAsking(true)}>{l.archive}</button>}
      </div>
      {asking && open && (
        <div class="confirm" role="group" aria-labelledby="archive-ask">
          <p id="archive-ask">{l.archiveAsk(open.recordCount)}</p>
          <div class="actions">
            <button type="button" class="primary" onClick={archive}>{l.archiveNow}</button>
            <button type="button" onClick={() => setAsking(false)}>{l.cancel}</button>
          </div>
        </div>
      )}
      {result && <p role="status" class={result.ok ? 'status' : 'error'}>{result.ok ? l.ok(result) : l.bad(result)}</p>}
      <Status text={status} />
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <div class="shown">
        <h3 id="domain-api-records">{l.apiTitle}</h3>
        <p class="help" id="domain-api-help">{l.apiHelp}</p>
        <div class="grid">
          <Field label={ctx.t('shownKey')}>
            {(id) => <input id={id} type="password" autoComplete="off" aria-describedby="domain-api-help" value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />}
          </Field>
        </div>
        <CurrentRecords ctx={ctx} domainId={domainId} apiKey={apiKey} onShown={(ucid) => setShownFor({ ucid, n: (shownFor?.n ?? 0) + 1 })} />
        <VisitorShown ctx={ctx} domainId={domainId} apiKey={apiKey} request={shownFor} />
      </div>
    </section>
  );
}

// The Domain API's record schema leaves its further fields (button, lang) and the shown embeddings open, so the
// generated types would say `unknown` where the console reads strings: these two stay written out here.
interface LogRecord {
  consent: boolean;
  ucid: string;
  timestamp: number;
  embeddings: Record<string, string>;
  button?: string;
}

/** A table of records: time, visitor, consent, button, accepted embeddings, and a "what they saw" button per row. */
function RecordTable({ ctx, records, caption, onShown }: { ctx: Ctx; records: LogRecord[]; caption: string; onShown: (ucid: string) => void }) {
  const l = L[ctx.lang];
  return (
    <div class="table-wrap" role="region" tabIndex={0} aria-label={caption}>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr><th scope="col">{l.time}</th><th scope="col">ucid</th><th scope="col">{l.consent}</th><th scope="col">{l.button}</th><th scope="col">{l.embeddings}</th><th scope="col"><span class="sr-only">{l.shown}</span></th></tr>
        </thead>
        <tbody>
          {records.map((r, i) => (
            <tr key={`${r.ucid}-${r.timestamp}-${i}`}>
              <td>{time(r.timestamp)}</td>
              <td><code title={r.ucid}>{r.ucid.slice(0, 12)}</code></td>
              <td>{r.consent ? l.yes : l.no}</td>
              <td>{buttonText(ctx, r.button)}</td>
              <td>{Object.values(r.embeddings).join(', ') || '–'}</td>
              <td><button type="button" aria-label={`${l.shown}: ${r.ucid.slice(0, 12)}`} onClick={() => onShown(r.ucid)}>{l.shown}</button></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const buttonText = (ctx: Ctx, b: string | undefined) => (b && BUTTONS.includes(b) ? ctx.t(`btn_${b}` as TextKey) : (b ?? '–'));

/** The current block's records through the Domain API, newest first, 50 at a time. */
function CurrentRecords({ ctx, domainId, apiKey, onShown }: { ctx: Ctx; domainId: string; apiKey: string; onShown: (ucid: string) => void }) {
  const l = L[ctx.lang];
  const [records, setRecords] = useState<LogRecord[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const fetchPage = async (cursor: string | null) => {
    setError(null);
    try {
      const page = await domainApiPage<LogRecord>(`/domains/${encodeURIComponent(domainId)}/consents?limit=50${cursor ? `&cursor=${cursor}` : ''}`, apiKey.trim());
      setRecords(cursor ? [...(records ?? []), ...page.items] : page.items);
      setNext(page.next);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section aria-labelledby="current-records">
      <h4 id="current-records" class="sr-only">{l.current}</h4>
      <button type="button" disabled={!apiKey.trim()} onClick={() => void fetchPage(null)}>{l.current}</button>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      {records && (records.length === 0 ? <p role="status">{l.none}</p> : (
        <>
          <p role="status">{records.length} {l.shownRows}</p>
          <RecordTable ctx={ctx} records={records} caption={l.current} onShown={onShown} />
          {next && <button type="button" onClick={() => void fetchPage(next)}>{l.more}</button>}
        </>
      ))}
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
function VisitorShown({ ctx, domainId, apiKey, request }: { ctx: Ctx; domainId: string; apiKey: string; request: { ucid: string; n: number } | null }) {
  const { t } = ctx;
  const l = L[ctx.lang];
  const key = apiKey;
  const [history, setHistory] = useState<LogRecord[] | null>(null);
  const [ucid, setUcid] = useState('');
  const [decisions, setDecisions] = useState<ShownDecision[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const show = async (of: string) => {
    setError(null);
    setDecisions(null);
    setHistory(null);
    setStatus('');
    try {
      setDecisions(await domainApi<ShownDecision[]>(`/domains/${encodeURIComponent(domainId)}/consents/${encodeURIComponent(of.trim())}/shown`, key.trim()));
    } catch (err) {
      setError(err);
    }
  };
  const lookup = (e: Event) => {
    e.preventDefault();
    void show(ucid);
  };
  const lookupHistory = async () => {
    setError(null);
    setDecisions(null);
    setHistory(null);
    setStatus('');
    try {
      setHistory(await domainApi<LogRecord[]>(`/domains/${encodeURIComponent(domainId)}/consents/${encodeURIComponent(ucid.trim())}`, key.trim()));
    } catch (err) {
      setError(err);
    }
  };
  // A row's "what they saw" button: the visitor's ucid goes into the form, and the answer below it.
  useEffect(() => {
    if (!request) return;
    setUcid(request.ucid);
    void show(request.ucid);
    document.getElementById('shown-title')?.scrollIntoView({ block: 'start' });
  }, [request]);
  const copy = async (hash: string) => {
    await navigator.clipboard.writeText(hash);
    setStatus(t('copied'));
  };
  const button = (b: string | undefined) => buttonText(ctx, b);
  return (
    <div class="shown">
      <form onSubmit={lookup} aria-labelledby="shown-title">
        <h3 id="shown-title">{t('shownTitle')}</h3>
        <p class="help">{t('shownHelp')}</p>
        <div class="grid">
          <Field label={t('shownUcid')} help={t('shownUcidHelp')}>
            {(id, described) => (
              <input id={id} required pattern="[0-9a-fA-F]{1,64}" maxLength={64} spellcheck={false} autoComplete="off" aria-describedby={described} value={ucid} onInput={(e) => setUcid(e.currentTarget.value)} />
            )}
          </Field>
        </div>
        <div class="actions">
          <button type="submit" disabled={!key.trim()}>{t('shownLookup')}</button>
          <button type="button" disabled={!key.trim() || !ucid.trim()} onClick={() => void lookupHistory()}>{l.history}</button>
        </div>
      </form>
      <ErrorBox error={error} title={t('errorTitle')} />
      {status && <Status text={status} />}
      {history && (history.length === 0 ? <p role="status">{l.historyNone}</p> : (
        <section aria-labelledby="history-title">
          <h4 id="history-title">{l.historyTitle}</h4>
          <RecordTable ctx={ctx} records={history} caption={l.historyTitle} onShown={(of) => { setUcid(of); void show(of); }} />
        </section>
      ))}
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
