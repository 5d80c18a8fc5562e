import { useEffect, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import { LOCALE_GROUPS, LONG_TEXT, PURPOSE_LABELS } from './locale-fields.js';
import type { Ctx } from './main.js';
import { Check, ErrorBox, Field, FocusHeading, Status, useAction } from './ui.js';

// The editor walks the texts by key (locale-fields.ts), hence the index signature.
type Locale = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/locale/{localeName}'> & Record<string, unknown>;

const L = {
  en: { title: 'Languages and texts', help: 'Each language the banner speaks, with every text. An empty field shows the built-in text named under it.', none: 'No languages yet: the banner uses the built-in English texts.', add: 'Add the language', name: 'Locale', nameHelp: 'e.g. en, de, de_DE or fr.', edit: 'Edit texts', remove: 'Delete', added: 'Added.', removed: 'Deleted.', active: 'Active (offered in the banner)', editing: 'Texts', builtIn: 'Empty shows:', emptyBuiltIn: 'Empty shows nothing.', purposes: 'Purposes', purposeName: 'name', purposeDescription: 'description', saveTexts: 'Save the texts', close: 'Close the editor', isActive: 'active', isInactive: 'inactive' },
  de: { title: 'Sprachen und Texte', help: 'Jede Sprache des Banners mit allen Texten. Ein leeres Feld zeigt den darunter genannten eingebauten Text.', none: 'Noch keine Sprachen: Das Banner nutzt die eingebauten englischen Texte.', add: 'Sprache hinzufügen', name: 'Locale', nameHelp: 'z. B. en, de, de_DE oder fr.', edit: 'Texte bearbeiten', remove: 'Löschen', added: 'Hinzugefügt.', removed: 'Gelöscht.', active: 'Aktiv (im Banner angeboten)', editing: 'Texte', builtIn: 'Leer zeigt:', emptyBuiltIn: 'Leer zeigt nichts.', purposes: 'Zwecke', purposeName: 'Name', purposeDescription: 'Beschreibung', saveTexts: 'Texte speichern', close: 'Editor schließen', isActive: 'aktiv', isInactive: 'inaktiv' },
};

/** A domain's locales: list, add, delete, and every text of one in an editor. */
export function LocalesPanel({ ctx, base }: { ctx: Ctx; base: string }) {
  const l = L[ctx.lang];
  const [items, setItems] = useState<Locale[] | null>(null);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const { act, error, setError, status } = useAction(() => load());
  const load = () => hosting<Locale[]>('GET', `${base}/locale`).then(setItems, setError);
  useEffect(() => void load(), [base]);
  return (
    <section class="card" aria-labelledby="locales">
      <h2 id="locales">{l.title}</h2>
      <p class="help">{l.help}</p>
      {items === null ? null : items.length === 0 ? <p>{l.none}</p> : (
        <ul class="list">
          {items.map((loc) => (
            <li key={loc.name}>
              <strong>{loc.name}</strong> · {loc.active ? l.isActive : l.isInactive}{' '}
              <button type="button" aria-label={`${l.edit}: ${loc.name}`} aria-expanded={editing === loc.name} onClick={() => setEditing(editing === loc.name ? null : loc.name)}>{l.edit}</button>{' '}
              <button type="button" aria-label={`${l.remove}: ${loc.name}`} onClick={() => act(() => hosting('DELETE', `${base}/locale/${encodeURIComponent(loc.name)}`), l.removed, () => editing === loc.name && setEditing(null))}>{l.remove}</button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-add" onSubmit={(e) => { e.preventDefault(); void act(() => hosting('POST', `${base}/locale`, { name }), l.added, () => { setEditing(name); setName(''); }); }}>
        <Field label={l.name} help={l.nameHelp}>{(id, described) => <input id={id} required aria-describedby={described} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
        <button type="submit">{l.add}</button>
      </form>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <Status text={status} />
      {editing && <LocaleEditor key={editing} ctx={ctx} url={`${base}/locale/${encodeURIComponent(editing)}`} onSaved={() => void load()} onClose={() => setEditing(null)} />}
    </section>
  );
}

function LocaleEditor({ ctx, url, onSaved, onClose }: { ctx: Ctx; url: string; onSaved: () => void; onClose: () => void }) {
  const l = L[ctx.lang];
  const de = ctx.lang === 'de';
  const [form, setForm] = useState<Locale | null>(null);
  const [shown, setShown] = useState<Locale | null>(null); // what the widget shows: empty fields filled from the built-in texts
  const { act, error, setError, status } = useAction(onSaved); // on failure the form keeps every text typed
  const loadShown = () => hosting<Locale>('GET', `${url}?effective=true`).then(setShown, setError);
  useEffect(() => {
    void hosting<Locale>('GET', url).then(setForm, setError);
    void loadShown();
  }, [url]);
  if (!form || !shown) return error ? <ErrorBox error={error} title={ctx.t('errorTitle')} /> : <p>{ctx.t('loading')}</p>;
  const save = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { ...form };
    delete body.name;
    void act(async () => {
      setForm(await hosting<Locale>('PUT', url, body));
      await loadShown();
    }, ctx.t('saved'));
  };
  // The built-in text a field falls back to: the effective text while the field is empty.
  const fallback = (stored: string, effective: string | undefined) => (stored === '' ? effective ?? '' : null);
  const help = (text: string | null) => (text === null ? undefined : text === '' ? l.emptyBuiltIn : `${l.builtIn} ${text}`);
  const headingId = 'locale-editor';
  return (
    <form class="editor" onSubmit={save} aria-labelledby={headingId}>
      <FocusHeading id={headingId}>{`${l.editing}: ${form.name}`}</FocusHeading>
      <Check label={l.active} checked={form.active} onChange={(v) => setForm({ ...form, active: v })} />
      {LOCALE_GROUPS.map((g) => (
        <fieldset key={g.title[0]}>
          <legend>{de ? g.title[1] : g.title[0]}</legend>
          {g.fields.map(([key, label]) => {
            const value = String(form[key] ?? '');
            return (
              <Field key={key} label={de ? label[1] : label[0]} help={help(fallback(value, shown[key] as string | undefined))}>
                {(id, described) => LONG_TEXT.has(key)
                  ? <textarea id={id} rows={4} aria-describedby={described} value={value} onInput={(e) => setForm({ ...form, [key]: e.currentTarget.value })} />
                  : <input id={id} aria-describedby={described} value={value} onInput={(e) => setForm({ ...form, [key]: e.currentTarget.value })} />}
              </Field>
            );
          })}
        </fieldset>
      ))}
      <fieldset>
        <legend>{l.purposes}</legend>
        {PURPOSE_LABELS.map(([pid, label]) => {
          const purpose = de ? label[1] : label[0];
          const nameValue = form.purposeNames[pid] ?? '';
          const descValue = form.purposeDescriptions[pid] ?? '';
          return (
            <div key={pid} class="grid">
              <Field label={`${purpose}: ${l.purposeName}`} help={help(fallback(nameValue, shown.purposeNames[pid]))}>
                {(id, described) => <input id={id} aria-describedby={described} value={nameValue} onInput={(e) => setForm({ ...form, purposeNames: { ...form.purposeNames, [pid]: e.currentTarget.value } })} />}
              </Field>
              <Field label={`${purpose}: ${l.purposeDescription}`} help={help(fallback(descValue, shown.purposeDescriptions[pid]))}>
                {(id, described) => <textarea id={id} rows={2} aria-describedby={described} value={descValue} onInput={(e) => setForm({ ...form, purposeDescriptions: { ...form.purposeDescriptions, [pid]: e.currentTarget.value } })} />}
              </Field>
            </div>
          );
        })}
      </fieldset>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <Status text={status} />
      <div class="actions">
        <button type="submit" class="primary">{l.saveTexts}</button>
        <button type="button" onClick={onClose}>{l.close}</button>
      </div>
    </form>
  );
}
