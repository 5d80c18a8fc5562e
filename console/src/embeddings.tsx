import { useEffect, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import type { Ctx } from './main.js';
import { EmbeddingEditor } from './embedding-editor.js';
import { Check, ErrorBox, Field, Status, useAction } from './ui.js';

type Embedding = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/embedding'>[number];
type Preset = Answer<'/hosting/api/onboarding/presets'>['items'][number];

const PURPOSES: Record<string, [en: string, de: string]> = {
  '41ba25c': ['Necessary', 'Notwendig'],
  cdcbd7c: ['Advertising', 'Werbung'],
  a717ff5: ['Analytics', 'Statistik'],
  '7c19e32': ['Personalisation', 'Personalisierung'],
  '6cd2721': ['Social media', 'Soziale Medien'],
  '15c61c3': ['Other', 'Sonstige'],
};

const L = {
  en: { title: 'Embeddings', none: 'No embeddings yet.', purpose: 'Purpose', cookies: 'cookies', fromCatalogue: 'Add from the catalogue', search: 'Search services', searchHelp: 'Name, provider or cookie name, e.g. analytics or _ga.', add: 'Add', added: 'Added.', byHand: 'Add by hand', name: 'Name', activeNow: 'Active right away', remove: 'Delete', removed: 'Deleted.', edit: 'Edit', activate: 'Activate', deactivate: 'Deactivate', results: 'services found', active: 'active', inactive: 'inactive' },
  de: { title: 'Einbindungen', none: 'Noch keine Einbindungen.', purpose: 'Zweck', cookies: 'Cookies', fromCatalogue: 'Aus dem Katalog hinzufügen', search: 'Dienste suchen', searchHelp: 'Name, Anbieter oder Cookie-Name, z. B. analytics oder _ga.', add: 'Hinzufügen', added: 'Hinzugefügt.', byHand: 'Von Hand hinzufügen', name: 'Name', activeNow: 'Sofort aktiv', remove: 'Löschen', removed: 'Gelöscht.', edit: 'Bearbeiten', activate: 'Aktivieren', deactivate: 'Deaktivieren', results: 'Dienste gefunden', active: 'aktiv', inactive: 'inaktiv' },
};

/** A domain's embeddings: the list, switching on and off, deleting, adding from the preset catalogue or by hand. */
export function EmbeddingsPanel({ ctx, base }: { ctx: Ctx; base: string }) {
  const l = L[ctx.lang];
  const purposeName = (id: string) => PURPOSES[id]?.[ctx.lang === 'de' ? 1 : 0] ?? id;
  const [items, setItems] = useState<Embedding[] | null>(null);
  const { act, error, setError, status } = useAction(() => load());
  const [editing, setEditing] = useState<string | null>(null);
  const load = () => hosting<Embedding[]>('GET', `${base}/embedding`).then(setItems, setError);
  useEffect(() => void load(), [base]);
  return (
    <section class="card" aria-labelledby="embeddings">
      <h2 id="embeddings">{l.title}</h2>
      {items === null ? null : items.length === 0 ? (
        <p>{l.none}</p>
      ) : (
        <ul class="list">
          {items.map((e) => (
            <li key={e.id}>
              <strong>{e.name}</strong> · {purposeName(e.purpose)} · {e.active ? l.active : l.inactive} · {e.assets.length} {l.cookies}{' '}
              <button type="button" aria-label={`${l.edit}: ${e.name}`} aria-expanded={editing === e.id} onClick={() => setEditing(editing === e.id ? null : e.id)}>
                {l.edit}
              </button>{' '}
              <button type="button" aria-label={`${e.active ? l.deactivate : l.activate}: ${e.name}`}
                onClick={() => act(() => hosting('PUT', `${base}/embedding/${e.id}`, { active: !e.active }), ctx.t('saved'))}>
                {e.active ? l.deactivate : l.activate}
              </button>{' '}
              <button type="button" aria-label={`${l.remove}: ${e.name}`} onClick={() => act(() => hosting('DELETE', `${base}/embedding/${e.id}`).then(() => editing === e.id && setEditing(null)), l.removed)}>
                {l.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <Status text={status} />
      {editing && (
        <EmbeddingEditor key={editing} ctx={ctx} base={base} embeddingId={editing} onChanged={() => void load()} onClose={() => setEditing(null)}
          purposes={Object.keys(PURPOSES).map((p) => [p, purposeName(p)])} />
      )}
      <Catalogue ctx={ctx} purposeName={purposeName} onAdd={(id, active) => act(() => hosting('POST', `${base}/onboarding/presets`, [{ id, active }]), l.added)} />
      <ByHand ctx={ctx} purposeName={purposeName} onAdd={(body) => act(() => hosting('POST', `${base}/embedding`, body), l.added)} />
    </section>
  );
}

function Catalogue({ ctx, purposeName, onAdd }: { ctx: Ctx; purposeName: (id: string) => string; onAdd: (id: number, active: boolean) => Promise<unknown> }) {
  const l = L[ctx.lang];
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<{ total: number; items: Preset[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [active, setActive] = useState(true);
  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setFound(await hosting('GET', `/onboarding/presets?limit=20&search=${encodeURIComponent(search)}`));
    } catch (err) {
      setError(err);
    }
  };
  const locale = ctx.lang === 'de' ? 'de_DE' : 'en_US';
  return (
    <form onSubmit={run} aria-labelledby="catalogue">
      <h3 id="catalogue">{l.fromCatalogue}</h3>
      <Field label={l.search} help={l.searchHelp}>
        {(id, described) => <input id={id} type="search" aria-describedby={described} value={search} onInput={(e) => setSearch(e.currentTarget.value)} />}
      </Field>
      <Check label={l.activeNow} checked={active} onChange={setActive} />
      <button type="submit">{l.search}</button>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      {found && (
        <>
          <p role="status">{found.total} {l.results}</p>
          <ul class="list">
            {found.items.map((p) => (
              <li key={p.id}>
                <strong>{p.translations[locale]?.name ?? p.name}</strong> · {purposeName(p.purpose)}{' '}
                <button type="button" aria-label={`${l.add}: ${p.name}`} onClick={() => void onAdd(p.id, active)}>{l.add}</button>
              </li>
            ))}
          </ul>
        </>
      )}
    </form>
  );
}

function ByHand({ ctx, purposeName, onAdd }: { ctx: Ctx; purposeName: (id: string) => string; onAdd: (body: unknown) => Promise<unknown> }) {
  const l = L[ctx.lang];
  const [name, setName] = useState('');
  const [purpose, setPurpose] = useState('a717ff5');
  return (
    <form aria-labelledby="by-hand" onSubmit={(e) => { e.preventDefault(); void onAdd({ name, purpose }); }}>
      <h3 id="by-hand">{l.byHand}</h3>
      <div class="grid">
        <Field label={l.name}>{(id) => <input id={id} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
        <Field label={l.purpose}>
          {(id) => (
            <select id={id} value={purpose} onChange={(e) => setPurpose(e.currentTarget.value)}>
              {Object.keys(PURPOSES).map((p) => <option value={p}>{purposeName(p)}</option>)}
            </select>
          )}
        </Field>
      </div>
      <button type="submit" class="primary">{l.add}</button>
    </form>
  );
}
