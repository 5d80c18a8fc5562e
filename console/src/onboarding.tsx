import { useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import { Snippet } from './snippet.js';
import { PURPOSE_LABELS } from './locale-fields.js';
import type { Ctx } from './main.js';
import { Check, ErrorBox, Progress, Status, useAction, useProgress } from './ui.js';

type ScanResult = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/onboarding/scan'>;

const L = {
  en: { title: 'Set up from a scan', help: 'Placet visits the site\'s pages in a headless browser, as a first-time visitor, and lists the cookies, storage entries, scripts and iframes it meets and the services of the preset catalogue they belong to. A scan takes up to a minute.', scan: 'Scan the website', again: 'Scan again', scanning: 'Scanning the website…', elapsed: 'seconds so far', progress: 'Scan in progress', done: 'Scan finished', pages: 'Pages scanned', mode: 'How', browser: 'in a headless browser', http: 'over HTTP only (no browser available: cookies set by scripts are missing)', imprint: 'Imprint found', privacy: 'Privacy policy found', address: 'Address in the imprint', none: 'none', duration: 'Duration', presets: 'Services found', presetsHelp: 'Each is a preset of the catalogue, with its cookies and texts. Choose which to import as embeddings.', foundBy: 'found by', noPresets: 'No known services found.', activeNow: 'Switch the imported services on right away', importPresets: 'Import the selected services', imported: 'Imported', newOnes: 'new', storage: 'Cookies and storage entries found', noStorage: 'None found.', name: 'Name', kind: 'Kind', where: 'Set for', thirdParty: 'third party', fromCookies: 'Create embeddings for these cookies and entries', fromCookiesHelp: 'Known ones join their service\'s preset; the rest go into one embedding of unrecognised items for you to sort.', embeddingsMade: 'Embeddings created or given new cookies', scripts: 'Third-party scripts', iframes: 'Third-party iframes', warnings: 'What limited the scan', step3: 'Last step: paste the snippet into the site' },
  de: { title: 'Einrichten per Scan', help: 'Placet besucht die Seiten der Website in einem Browser ohne Oberfläche, wie ein Erstbesucher, und listet die angetroffenen Cookies, Speichereinträge, Skripte und Iframes samt den Diensten des Vorlagenkatalogs, zu denen sie gehören. Ein Scan dauert bis zu einer Minute.', scan: 'Website scannen', again: 'Erneut scannen', scanning: 'Die Website wird gescannt…', elapsed: 'Sekunden bisher', progress: 'Scan läuft', done: 'Scan abgeschlossen', pages: 'Gescannte Seiten', mode: 'Wie', browser: 'in einem Browser ohne Oberfläche', http: 'nur über HTTP (kein Browser verfügbar: von Skripten gesetzte Cookies fehlen)', imprint: 'Gefundenes Impressum', privacy: 'Gefundene Datenschutzerklärung', address: 'Anschrift im Impressum', none: 'keine', duration: 'Dauer', presets: 'Gefundene Dienste', presetsHelp: 'Jeder ist eine Vorlage des Katalogs mit Cookies und Texten. Wählen Sie, welche als Einbindungen importiert werden.', foundBy: 'gefunden über', noPresets: 'Keine bekannten Dienste gefunden.', activeNow: 'Importierte Dienste gleich einschalten', importPresets: 'Ausgewählte Dienste importieren', imported: 'Importiert', newOnes: 'neu', storage: 'Gefundene Cookies und Speichereinträge', noStorage: 'Keine gefunden.', name: 'Name', kind: 'Art', where: 'Gesetzt für', thirdParty: 'Drittanbieter', fromCookies: 'Einbindungen für diese Cookies und Einträge anlegen', fromCookiesHelp: 'Bekannte kommen zur Vorlage ihres Dienstes; der Rest kommt in eine Einbindung nicht erkannter Einträge zum Sortieren.', embeddingsMade: 'Angelegte oder um Cookies ergänzte Einbindungen', scripts: 'Skripte Dritter', iframes: 'Iframes Dritter', warnings: 'Was den Scan begrenzt hat', step3: 'Letzter Schritt: den Einbettungscode in die Website einfügen' },
};

/** Onboarding: scan the site (with visible progress), import the services and cookies found, paste the snippet. */
export function OnboardingPanel({ ctx, base, onImported }: { ctx: Ctx; base: string; onImported: () => void }) {
  const l = L[ctx.lang];
  const de = ctx.lang === 'de';
  const [result, setResult] = useState<ScanResult | null>(null);
  const { busy, track, seconds } = useProgress();
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [active, setActive] = useState(false);
  // Each import says in its status what it did; on failure the choices stay as they were.
  const { act: runImport, error: importError, status: importStatus, setStatus: setImportStatus } = useAction(onImported);
  const [made, setMade] = useState<{ name: string; created: boolean; cookies: { name: string }[]; addedAssets: { name: string }[] }[] | null>(null);
  const purposeName = (id: string) => PURPOSE_LABELS.find(([p]) => p === id)?.[1][de ? 1 : 0] ?? id;

  const scan = () => track(async () => {
    setError(null);
    setStatus(l.scanning);
    setMade(null);
    setImportStatus('');
    try {
      const found = await hosting<ScanResult>('GET', `${base}/onboarding/scan`);
      setResult(found);
      setChosen(new Set(found.availablePresets.map((p) => p.id)));
      setStatus(`${l.done}: ${found.pagesScanned.length} ${l.pages.toLowerCase()}, ${found.availablePresets.length} ${l.presets.toLowerCase()}.`);
    } catch (err) {
      setError(err);
      setStatus('');
    }
  });
  const run = (work: () => Promise<string>) => runImport(work, (done) => done);
  const importPresets = () => run(async () => {
    const done = await hosting<{ created: boolean }[]>('POST', `${base}/onboarding/presets`, [...chosen].map((id) => ({ id, active })));
    return `${l.imported}: ${done.length} (${done.filter((d) => d.created).length} ${l.newOnes}).`;
  });
  const storageItems = result ? [
    ...result.storage.cookies.map((c) => ({ name: c.name, storageType: 'cookie', where: `${c.domain}${c.path}`, thirdParty: c.thirdParty })),
    ...result.storage.localStorage.map((s) => ({ name: s.name, storageType: 'localStorage', where: s.origin, thirdParty: false })),
    ...result.storage.sessionStorage.map((s) => ({ name: s.name, storageType: 'sessionStorage', where: s.origin, thirdParty: false })),
  ] : [];
  const fromCookies = () => run(async () => {
    // One entry per name and kind: the API takes names, not where they were set.
    const unique = [...new Map(storageItems.map((s) => [`${s.storageType}:${s.name}`, { name: s.name, storageType: s.storageType }])).values()];
    const done = await hosting<NonNullable<typeof made>>('POST', `${base}/onboarding/embeddingsFromCookies`, unique);
    setMade(done);
    return `${l.embeddingsMade}: ${done.length}.`;
  });

  return (
    <section class="card" aria-labelledby="onboarding" aria-busy={busy}>
      <h2 id="onboarding">{l.title}</h2>
      <p class="help">{l.help}</p>
      <button type="button" class="primary" onClick={scan} disabled={busy}>{result ? l.again : l.scan}</button>
      {busy && <Progress label={l.progress} text={l.scanning} seconds={seconds} elapsed={l.elapsed} />}
      <Status text={status} />
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      {result && (
        <>
          <dl class="facts">
            <dt>{l.mode}</dt><dd>{result.mode === 'browser' ? l.browser : l.http}</dd>
            <dt>{l.pages}</dt>
            <dd>
              <details><summary>{result.pagesScanned.length}</summary><ul class="list">{result.pagesScanned.map((p) => <li key={p}><code>{p}</code></li>)}</ul></details>
            </dd>
            <dt>{l.imprint}</dt><dd>{result.imprintUrl ?? l.none}</dd>
            <dt>{l.privacy}</dt><dd>{result.privacyPolicyUrl ?? l.none}</dd>
            <dt>{l.address}</dt><dd>{[result.address.company, result.address.street, [result.address.zipCode, result.address.city].filter(Boolean).join(' ')].filter(Boolean).join(', ') || l.none}</dd>
            <dt>{l.duration}</dt><dd>{(result.durationMs / 1000).toFixed(1)} s</dd>
          </dl>

          <section class="step" aria-labelledby="found-presets">
            <h3 id="found-presets">{l.presets}</h3>
            {result.availablePresets.length === 0 ? <p>{l.noPresets}</p> : (
              <>
                <p class="help">{l.presetsHelp}</p>
                {result.availablePresets.map((p) => (
                  <Check key={p.id} label={`${p.translations[de ? 'de_DE' : 'en_US']?.name ?? p.name} · ${purposeName(p.purpose)}`}
                    help={`${l.foundBy} ${p.matchedBy.map((m) => `${m.type} ${m.value}`).join(', ')}`}
                    checked={chosen.has(p.id)}
                    onChange={(on) => { const next = new Set(chosen); if (on) next.add(p.id); else next.delete(p.id); setChosen(next); }} />
                ))}
                <Check label={l.activeNow} checked={active} onChange={setActive} />
                <button type="button" class="primary" disabled={chosen.size === 0} onClick={importPresets}>{l.importPresets}</button>
              </>
            )}
          </section>

          <section class="step" aria-labelledby="found-storage">
            <h3 id="found-storage">{l.storage}</h3>
            {storageItems.length === 0 ? <p>{l.noStorage}</p> : (
              <>
                <div class="table-wrap" role="region" tabIndex={0} aria-label={l.storage}>
                  <table>
                    <caption class="sr-only">{l.storage}</caption>
                    <thead><tr><th scope="col">{l.name}</th><th scope="col">{l.kind}</th><th scope="col">{l.where}</th></tr></thead>
                    <tbody>
                      {storageItems.map((s) => (
                        <tr key={`${s.storageType}:${s.name}:${s.where}`}><td><code>{s.name}</code></td><td>{s.storageType}</td><td>{s.where}{s.thirdParty ? ` (${l.thirdParty})` : ''}</td></tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <p class="help" id="from-cookies-help">{l.fromCookiesHelp}</p>
                <button type="button" aria-describedby="from-cookies-help" onClick={fromCookies}>{l.fromCookies}</button>
              </>
            )}
            {made && (
              <ul class="list">
                {made.map((m) => <li key={m.name}><strong>{m.name}</strong>: {[...m.cookies, ...m.addedAssets].map((c) => c.name).filter((n, i, all) => all.indexOf(n) === i).join(', ')}</li>)}
              </ul>
            )}
          </section>
          <ErrorBox error={importError} title={ctx.t('errorTitle')} />
          <Status text={importStatus} />
          {(result.scripts.length > 0 || result.iframes.length > 0 || result.warnings.length > 0) && (
            <dl class="facts">
              {result.scripts.length > 0 && <><dt>{l.scripts}</dt><dd><ul class="list">{result.scripts.map((s) => <li key={s}><code>{s}</code></li>)}</ul></dd></>}
              {result.iframes.length > 0 && <><dt>{l.iframes}</dt><dd><ul class="list">{result.iframes.map((s) => <li key={s}><code>{s}</code></li>)}</ul></dd></>}
              {result.warnings.length > 0 && <><dt>{l.warnings}</dt><dd><ul class="list">{result.warnings.map((s) => <li key={s}>{s}</li>)}</ul></dd></>}
            </dl>
          )}
          <p><strong>{l.step3}</strong></p>
          <Snippet ctx={ctx} base={base} id="onboarding-snippet" inline />
        </>
      )}
    </section>
  );
}
