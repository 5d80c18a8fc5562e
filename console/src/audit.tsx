import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import type { Ctx } from './main.js';
import { ErrorBox, Progress, Status, useProgress } from './ui.js';

type AuditResult = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/onboarding/audit'>;
type Violation = AuditResult['violations'][number];
type AuditState = Violation['state'];

const STATES: AuditState[] = ['beforeDecision', 'afterDecline', 'placetUnreachable'];

const L = {
  en: {
    title: 'Enforcement audit', help: 'With the snippet on the site, Placet visits its pages in a headless browser as four visitors: one who never decides, one who declines, one who accepts all, and one who comes while Placet cannot be reached. Listed as violations is what reached a third party or was written to the device before a decision, after "decline" or while Placet could not be reached, with what to change. The audit\'s clicks are not recorded; its widget loads count as calls. It takes up to a minute.',
    run: 'Run the audit', again: 'Run the audit again', running: 'Auditing the website…', elapsed: 'seconds so far', progress: 'Audit in progress',
    done: (r: AuditResult) => `Audit finished: ${r.pagesAudited.length} ${r.pagesAudited.length === 1 ? 'page' : 'pages'}, ${r.violations.length} ${r.violations.length === 1 ? 'violation' : 'violations'}.`,
    noWidget: 'The banner appeared on no page: is the snippet on the site, and the widget switched on?', warnings: 'Warnings: what limited the audit, and scripts above the snippet', page: 'Page', noBanner: 'no banner on this page',
    states: { beforeDecision: 'Before any decision', afterDecline: 'After "decline"', placetUnreachable: 'While Placet could not be reached' } as Record<AuditState, string>,
    none: 'Nothing loaded or written that needs consent.', notAudited: 'Not audited in this state.', kind: 'Kind', what: 'Request or name', belongs: 'Belongs to', fix: 'Suggested fix', unknown: 'unknown',
    kinds: { request: 'request', cookie: 'cookie', localStorage: 'local storage', sessionStorage: 'session storage' } as Record<Violation['kind'], string>,
    embedding: 'embedding', preset: 'catalogue preset',
  },
  de: {
    title: 'Prüfung der Blockierung', help: 'Mit dem Einbettungscode auf der Website besucht Placet deren Seiten in einem Browser ohne Oberfläche als vier Besucher: einer entscheidet nie, einer lehnt ab, einer akzeptiert alles, und einer kommt, während Placet nicht erreichbar ist. Als Verstöße aufgeführt ist, was vor einer Entscheidung, nach „Ablehnen“ oder ohne erreichbares Placet einen Dritten erreicht hat oder auf das Gerät geschrieben wurde, mit dem, was zu ändern ist. Die Klicks der Prüfung werden nicht protokolliert; ihre Widget-Aufrufe zählen. Sie dauert bis zu einer Minute.',
    run: 'Prüfung starten', again: 'Erneut prüfen', running: 'Die Website wird geprüft…', elapsed: 'Sekunden bisher', progress: 'Prüfung läuft',
    done: (r: AuditResult) => `Prüfung abgeschlossen: ${r.pagesAudited.length} ${r.pagesAudited.length === 1 ? 'Seite' : 'Seiten'}, ${r.violations.length} ${r.violations.length === 1 ? 'Verstoß' : 'Verstöße'}.`,
    noWidget: 'Das Banner erschien auf keiner Seite: Ist der Einbettungscode auf der Website und das Widget eingeschaltet?', warnings: 'Hinweise: was die Prüfung begrenzt hat, und Skripte vor dem Einbettungscode', page: 'Seite', noBanner: 'kein Banner auf dieser Seite',
    states: { beforeDecision: 'Vor jeder Entscheidung', afterDecline: 'Nach „Ablehnen“', placetUnreachable: 'Während Placet nicht erreichbar war' } as Record<AuditState, string>,
    none: 'Nichts geladen oder geschrieben, das eine Einwilligung braucht.', notAudited: 'In diesem Zustand nicht geprüft.', kind: 'Art', what: 'Anfrage oder Name', belongs: 'Gehört zu', fix: 'Vorgeschlagene Lösung', unknown: 'unbekannt',
    kinds: { request: 'Anfrage', cookie: 'Cookie', localStorage: 'Local Storage', sessionStorage: 'Session Storage' } as Record<Violation['kind'], string>,
    embedding: 'Einbindung', preset: 'Katalogvorlage',
  },
};

/** The enforcement audit (docs/onboarding.md): one button, then per page and state the violations with their fixes. */
export function AuditPanel({ ctx, base }: { ctx: Ctx; base: string }) {
  const l = L[ctx.lang];
  const [result, setResult] = useState<AuditResult | null>(null);
  const { busy, track, seconds } = useProgress();
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const run = () => track(async () => {
    setError(null);
    setResult(null);
    setStatus(l.running);
    try {
      const r = await hosting<AuditResult>('GET', `${base}/onboarding/audit`);
      setResult(r);
      setStatus(l.done(r));
    } catch (err) {
      setStatus('');
      setError(err);
    }
  });
  const belongsTo = (v: Violation) =>
    v.embedding ? `${l.embedding} ${v.embedding.name}` : v.preset ? `${l.preset} ${v.preset.name}` : l.unknown;
  return (
    <section class="card" aria-labelledby="audit" aria-busy={busy}>
      <h2 id="audit">{l.title}</h2>
      <p class="help">{l.help}</p>
      <button type="button" class="primary" onClick={run} disabled={busy}>{result ? l.again : l.run}</button>
      {busy && <Progress label={l.progress} text={l.running} seconds={seconds} elapsed={l.elapsed} />}
      <Status text={status} />
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      {result && !result.widgetFound && <p class="error">{l.noWidget}</p>}
      {result && result.warnings.length > 0 && (
        <>
          <h3>{l.warnings}</h3>
          <ul class="list">{result.warnings.map((w) => <li>{w}</li>)}</ul>
        </>
      )}
      {result && result.pages.map((p) => (
        <div class="step" key={p.url}>
          <h3 class="key">{`${l.page}: ${p.url}`}{p.widget ? '' : ` (${l.noBanner})`}</h3>
          {STATES.map((state) => {
            const found = result.violations.filter((v) => v.page === p.url && v.state === state);
            const caption = `${l.states[state]}: ${p.url}`;
            return (
              <Fragment key={state}>
                <h4>{l.states[state]}</h4>
                {p[state] === null ? (
                  <p>{l.notAudited}</p>
                ) : found.length === 0 ? (
                  <p>{l.none}</p>
                ) : (
                  <div class="table-wrap" role="region" tabIndex={0} aria-label={caption}>
                    <table>
                      <caption class="sr-only">{caption}</caption>
                      <thead>
                        <tr><th scope="col">{l.what}</th><th scope="col">{l.kind}</th><th scope="col">{l.belongs}</th><th scope="col">{l.fix}</th></tr>
                      </thead>
                      <tbody>
                        {found.map((v) => (
                          <tr>
                            <th scope="row"><code class="key">{v.value}</code></th>
                            <td>{v.resourceType && v.kind === 'request' ? `${l.kinds[v.kind]} (${v.resourceType})` : l.kinds[v.kind]}</td>
                            <td>{belongsTo(v)}</td>
                            <td>{v.fix}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </Fragment>
            );
          })}
        </div>
      ))}
    </section>
  );
}
