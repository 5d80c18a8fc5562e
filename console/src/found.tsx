import { useEffect, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import type { Ctx } from './main.js';
import { ErrorBox, Field, FocusHeading, Status, useAction } from './ui.js';

const KINDS = ['script', 'iframe', 'cookie', 'localStorage', 'sessionStorage'] as const;
const STATES = ['new', 'ignored', 'adopted'] as const;
type Kind = (typeof KINDS)[number];
type State = (typeof STATES)[number];

type FoundList = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/found'>;
type FoundItem = FoundList['items'][number];
type Embedding = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/embedding'>[number];

/** Items per page of the list (the API allows up to 500). */
const PAGE = 20;

const L = {
  en: {
    title: 'Found items', help: 'Scripts, iframes, cookies and storage entries the widget met on visitors\' pages that no embedding declares (with "record scripts" or "permanent scan" on in the settings). Ignore what is no consent matter (under "block new scripts" an ignored script may run), or adopt an item into an embedding, which then declares and blocks it until it is accepted.',
    kind: 'Kind', state: 'State', all: 'all', filter: 'Filter', item: 'Script, iframe or name', firstUrl: 'First seen on', firstSeen: 'First seen', lastSeen: 'Last seen', count: 'Reports', actions: 'Actions',
    kinds: { script: 'script', iframe: 'iframe', cookie: 'cookie', localStorage: 'local storage', sessionStorage: 'session storage' } as Record<Kind, string>,
    states: { new: 'new', ignored: 'ignored', adopted: 'adopted' } as Record<State, string>,
    none: 'Nothing found (with this filter).', shown: (a: number, b: number, n: number) => `Items ${a}–${b} of ${n}.`, previous: 'Previous page', next: 'Next page',
    ignore: 'Ignore', backToNew: 'Back to new', adopt: 'Adopt into an embedding…', ignored: (k: string) => `Ignored: ${k}.`, madeNew: (k: string) => `New again: ${k}.`,
    adoptTitle: (k: string) => `Adopt ${k} into an embedding`, embedding: 'Embedding', adoptNow: 'Adopt', cancel: 'Cancel', noEmbeddings: 'This domain has no embeddings yet. Add one under "Embeddings" first.',
    adoptHelp: { script: 'Its host becomes a script marker of the embedding.', iframe: 'Its host becomes an iframe marker of the embedding.', cookie: 'It becomes a cookie of the embedding.', localStorage: 'It becomes a local-storage entry of the embedding.', sessionStorage: 'It becomes a session-storage entry of the embedding.' } as Record<Kind, string>,
    adopted: (k: string, e: string) => `Adopted into ${e}: ${k}.`,
  },
  de: {
    title: 'Gefundene Einträge', help: 'Skripte, Iframes, Cookies und Speichereinträge, die das Widget auf den Seiten von Besuchern angetroffen hat und die keine Einbindung deklariert (wenn „Skripte aufzeichnen“ oder „dauerhafter Scan“ in den Einstellungen an ist). Ignorieren Sie, was keine Einwilligung braucht (unter „neue Skripte blockieren“ darf ein ignoriertes Skript laufen), oder übernehmen Sie einen Eintrag in eine Einbindung, die ihn dann deklariert und bis zur Zustimmung blockiert.',
    kind: 'Art', state: 'Zustand', all: 'alle', filter: 'Filter', item: 'Skript, Iframe oder Name', firstUrl: 'Zuerst gesehen auf', firstSeen: 'Zuerst gesehen', lastSeen: 'Zuletzt gesehen', count: 'Meldungen', actions: 'Aktionen',
    kinds: { script: 'Skript', iframe: 'Iframe', cookie: 'Cookie', localStorage: 'Local Storage', sessionStorage: 'Session Storage' } as Record<Kind, string>,
    states: { new: 'neu', ignored: 'ignoriert', adopted: 'übernommen' } as Record<State, string>,
    none: 'Nichts gefunden (mit diesem Filter).', shown: (a: number, b: number, n: number) => `Einträge ${a}–${b} von ${n}.`, previous: 'Vorherige Seite', next: 'Nächste Seite',
    ignore: 'Ignorieren', backToNew: 'Wieder neu', adopt: 'In eine Einbindung übernehmen…', ignored: (k: string) => `Ignoriert: ${k}.`, madeNew: (k: string) => `Wieder neu: ${k}.`,
    adoptTitle: (k: string) => `${k} in eine Einbindung übernehmen`, embedding: 'Einbindung', adoptNow: 'Übernehmen', cancel: 'Abbrechen', noEmbeddings: 'Diese Domain hat noch keine Einbindungen. Legen Sie zuerst unter „Einbindungen“ eine an.',
    adoptHelp: { script: 'Sein Host wird ein Skript-Marker der Einbindung.', iframe: 'Sein Host wird ein Iframe-Marker der Einbindung.', cookie: 'Er wird ein Cookie der Einbindung.', localStorage: 'Er wird ein Local-Storage-Eintrag der Einbindung.', sessionStorage: 'Er wird ein Session-Storage-Eintrag der Einbindung.' } as Record<Kind, string>,
    adopted: (k: string, e: string) => `In ${e} übernommen: ${k}.`,
  },
};

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** A domain's found items (docs/found-items.md): the list with kind/state filters and pages; ignore, back to new, adopt. */
export function FoundPanel({ ctx, base, onAdopted }: { ctx: Ctx; base: string; onAdopted: () => void }) {
  const l = L[ctx.lang];
  const [kind, setKind] = useState<Kind | ''>('');
  const [state, setState] = useState<State | ''>('');
  const [offset, setOffset] = useState(0);
  const [list, setList] = useState<FoundList | null>(null);
  const { act, error, setError, status } = useAction(() => load());
  const [adopting, setAdopting] = useState<FoundItem | null>(null);
  const load = async () => {
    const q = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (kind) q.set('kind', kind);
    if (state) q.set('state', state);
    try {
      const page = await hosting<FoundList>('GET', `${base}/found?${q}`);
      // The last item of a later page left the filter (ignored, adopted): show the page before it.
      if (page.items.length === 0 && offset > 0) setOffset(Math.max(0, offset - PAGE));
      else setList(page);
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => void load(), [base, kind, state, offset]);
  const changeState = (item: FoundItem, to: 'new' | 'ignored') =>
    act(() => hosting('PATCH', `${base}/found/${item.id}`, { state: to }), to === 'ignored' ? l.ignored(item.key) : l.madeNew(item.key));
  return (
    <section class="card" aria-labelledby="found">
      <h2 id="found">{l.title}</h2>
      <p class="help">{l.help}</p>
      <fieldset>
        <legend>{l.filter}</legend>
        <div class="grid">
          <Field label={l.kind}>
            {(id) => (
              <select id={id} value={kind} onChange={(e) => { setOffset(0); setKind(e.currentTarget.value as Kind | ''); }}>
                <option value="">{l.all}</option>
                {KINDS.map((k) => <option value={k}>{l.kinds[k]}</option>)}
              </select>
            )}
          </Field>
          <Field label={l.state}>
            {(id) => (
              <select id={id} value={state} onChange={(e) => { setOffset(0); setState(e.currentTarget.value as State | ''); }}>
                <option value="">{l.all}</option>
                {STATES.map((s) => <option value={s}>{l.states[s]}</option>)}
              </select>
            )}
          </Field>
        </div>
      </fieldset>
      {list && list.items.length === 0 && <p>{l.none}</p>}
      {list && list.items.length > 0 && (
        <>
          <div class="table-wrap" role="region" tabIndex={0} aria-label={l.title}>
            <table>
              <caption class="sr-only">{l.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{l.item}</th><th scope="col">{l.kind}</th><th scope="col">{l.firstUrl}</th><th scope="col">{l.firstSeen}</th>
                  <th scope="col">{l.lastSeen}</th><th scope="col">{l.count}</th><th scope="col">{l.state}</th><th scope="col">{l.actions}</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((i) => (
                  <tr key={i.id}>
                    <th scope="row"><code class="key">{i.key}</code></th>
                    <td>{l.kinds[i.kind]}</td>
                    <td class="key">{i.firstUrl}</td>
                    <td><time dateTime={i.firstSeen}>{when(i.firstSeen)}</time></td>
                    <td><time dateTime={i.lastSeen}>{when(i.lastSeen)}</time></td>
                    <td>{i.count}</td>
                    <td>{l.states[i.state]}</td>
                    <td>
                      <div class="actions">
                        {i.state === 'new' && <button type="button" aria-label={`${l.ignore}: ${i.key}`} onClick={() => void changeState(i, 'ignored')}>{l.ignore}</button>}
                        {i.state === 'ignored' && <button type="button" aria-label={`${l.backToNew}: ${i.key}`} onClick={() => void changeState(i, 'new')}>{l.backToNew}</button>}
                        {i.state !== 'adopted' && (
                          <button type="button" aria-label={`${l.adopt} ${i.key}`} aria-expanded={adopting?.id === i.id} onClick={() => setAdopting(adopting?.id === i.id ? null : i)}>
                            {l.adopt}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p role="status">{l.shown(list.offset + 1, list.offset + list.items.length, list.total)}</p>
          {list.total > PAGE && (
            <div class="actions">
              <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>{l.previous}</button>
              <button type="button" disabled={offset + PAGE >= list.total} onClick={() => setOffset(offset + PAGE)}>{l.next}</button>
            </div>
          )}
        </>
      )}
      {adopting && (
        <Adopt key={adopting.id} ctx={ctx} base={base} item={adopting} onCancel={() => setAdopting(null)}
          onAdopt={async (e) => {
            if (await act(() => hosting('POST', `${base}/found/${adopting.id}/adopt`, { embeddingId: e.id }), l.adopted(adopting.key, e.name))) {
              setAdopting(null);
              onAdopted();
            }
          }} />
      )}
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <Status text={status} />
    </section>
  );
}

/** Choosing the embedding that takes a found item; the embeddings are read when it opens, so new ones are there. */
function Adopt({ ctx, base, item, onAdopt, onCancel }: { ctx: Ctx; base: string; item: FoundItem; onAdopt: (e: Embedding) => Promise<void>; onCancel: () => void }) {
  const l = L[ctx.lang];
  const [embeddings, setEmbeddings] = useState<Embedding[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void hosting<Embedding[]>('GET', `${base}/embedding`).then((list) => { setEmbeddings(list); setChosen(list[0]?.id ?? ''); }, setError), [base]);
  return (
    <form class="editor" aria-labelledby="adopt-title" onSubmit={(e) => {
      e.preventDefault();
      const embedding = embeddings?.find((x) => x.id === chosen);
      if (embedding) void onAdopt(embedding);
    }}>
      <FocusHeading id="adopt-title">{l.adoptTitle(item.key)}</FocusHeading>
      <p class="help" id="adopt-help">{l.adoptHelp[item.kind]}</p>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      {embeddings && embeddings.length === 0 && <p>{l.noEmbeddings}</p>}
      {embeddings && embeddings.length > 0 && (
        <Field label={l.embedding}>
          {(id) => (
            <select id={id} aria-describedby="adopt-help" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
              {embeddings.map((x) => <option value={x.id}>{x.name}</option>)}
            </select>
          )}
        </Field>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={!embeddings || embeddings.length === 0}>{l.adoptNow}</button>
        <button type="button" onClick={onCancel}>{l.cancel}</button>
      </div>
    </form>
  );
}
