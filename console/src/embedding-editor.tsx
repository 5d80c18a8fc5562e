import { useEffect, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import { ASSET_FIELDS, EMBEDDING_BLOCKING_FIELDS, EMBEDDING_TEXT_FIELDS, EMBEDDING_TRANSLATION_FIELDS } from './embedding-fields.js';
import { FieldGroup, FieldInput } from './form-fields.js';
import type { Ctx } from './main.js';
import { Check, ErrorBox, Field, FocusHeading, Status, useAction } from './ui.js';

type Values = Record<string, unknown>;
// The editors walk the fields by key (embedding-fields.ts), hence the index signatures.
export type EmbeddingData = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/embedding/{embeddingId}'> & Values & { translations: Record<string, Values> };
type Asset = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/embedding/{embeddingId}/asset'>[number] & Values;

const L = {
  en: { edit: 'Edit', close: 'Close the editor', basics: 'Name and purpose', name: 'Name', purpose: 'Purpose', active: 'Active (shown in the widget)', texts: 'Texts in the banner', blocking: 'Blocking and loading', translations: 'Translations', translationsHelp: 'Per language, the texts that differ from the ones above (locale names such as de_DE or en).', translationFor: 'Translation', addTranslation: 'Add a translation', locale: 'Locale', removeTranslation: 'Remove this translation', saveEmbedding: 'Save the embedding', assets: 'Cookies and storage entries', noAssets: 'No cookies or entries yet.', newAsset: 'New cookie or entry', editAsset: 'Edit', addAsset: 'Add the cookie', saveAsset: 'Save the cookie', cancel: 'Cancel', remove: 'Delete', removed: 'Deleted.', added: 'Added.', assetLifetime: 'Lifetime', assetDescription: 'Description', emptyMain: 'Empty: the main text.' },
  de: { edit: 'Bearbeiten', close: 'Editor schließen', basics: 'Name und Zweck', name: 'Name', purpose: 'Zweck', active: 'Aktiv (im Widget gezeigt)', texts: 'Texte im Banner', blocking: 'Blockieren und Laden', translations: 'Übersetzungen', translationsHelp: 'Je Sprache die Texte, die von den obigen abweichen (Locale-Namen wie de_DE oder en).', translationFor: 'Übersetzung', addTranslation: 'Übersetzung hinzufügen', locale: 'Locale', removeTranslation: 'Diese Übersetzung entfernen', saveEmbedding: 'Einbindung speichern', assets: 'Cookies und Speichereinträge', noAssets: 'Noch keine Cookies oder Einträge.', newAsset: 'Neues Cookie oder neuer Eintrag', editAsset: 'Bearbeiten', addAsset: 'Cookie hinzufügen', saveAsset: 'Cookie speichern', cancel: 'Abbrechen', remove: 'Löschen', removed: 'Gelöscht.', added: 'Hinzugefügt.', assetLifetime: 'Laufzeit', assetDescription: 'Beschreibung', emptyMain: 'Leer: der Haupttext.' },
};

const EDITABLE = ['name', 'purpose', 'active', ...EMBEDDING_TEXT_FIELDS.map((f) => f.key), ...EMBEDDING_BLOCKING_FIELDS.map((f) => f.key), 'translations'];

/** Every field of one embedding, its translations and its assets one by one (Hosting API embedding and asset calls). */
export function EmbeddingEditor({ ctx, base, embeddingId, purposes, onChanged, onClose }: {
  ctx: Ctx; base: string; embeddingId: string; purposes: [id: string, name: string][]; onChanged: () => void; onClose: () => void;
}) {
  const l = L[ctx.lang];
  const url = `${base}/embedding/${embeddingId}`;
  const [form, setForm] = useState<EmbeddingData | null>(null);
  const { act, error, setError, status } = useAction(onChanged); // on failure the form keeps what was typed
  const [newLocale, setNewLocale] = useState('');
  useEffect(() => void hosting<EmbeddingData>('GET', url).then(setForm, setError), [url]);
  if (!form) return error ? <ErrorBox error={error} title={ctx.t('errorTitle')} /> : <p>{ctx.t('loading')}</p>;
  const set = (key: string, v: unknown) => setForm({ ...form, [key]: v });
  const setTranslation = (locale: string, key: string, v: unknown) =>
    set('translations', { ...form.translations, [locale]: { ...form.translations[locale], [key]: v } });
  const save = (e: Event) => {
    e.preventDefault();
    void act(() => hosting<EmbeddingData>('PUT', url, Object.fromEntries(EDITABLE.map((k) => [k, form[k]]))), ctx.t('saved'), (saved) => setForm({ ...saved }));
  };
  const headingId = `edit-${embeddingId}`;
  return (
    <section class="editor" aria-labelledby={headingId}>
      <FocusHeading id={headingId}>{`${l.edit}: ${form.name}`}</FocusHeading>
      <form onSubmit={save}>
        <fieldset>
          <legend>{l.basics}</legend>
          <div class="grid">
            <Field label={l.name}>{(id) => <input id={id} required value={form.name} onInput={(e) => set('name', e.currentTarget.value)} />}</Field>
            <Field label={l.purpose}>
              {(id) => (
                <select id={id} value={form.purpose} onChange={(e) => set('purpose', e.currentTarget.value)}>
                  {purposes.map(([p, name]) => <option value={p}>{name}</option>)}
                </select>
              )}
            </Field>
          </div>
          <Check label={l.active} checked={form.active} onChange={(v) => set('active', v)} />
        </fieldset>
        <FieldGroup legend={l.texts} fields={EMBEDDING_TEXT_FIELDS} lang={ctx.lang} values={form} onChange={set} />
        <FieldGroup legend={l.blocking} fields={EMBEDDING_BLOCKING_FIELDS} lang={ctx.lang} values={form} onChange={set} />
        <fieldset>
          <legend>{l.translations}</legend>
          <p class="help">{l.translationsHelp}</p>
          {Object.keys(form.translations).map((locale) => (
            <fieldset key={locale}>
              <legend>{`${l.translationFor} ${locale}`}</legend>
              {EMBEDDING_TRANSLATION_FIELDS.map((f) => (
                <FieldInput key={f.key} field={f} lang={ctx.lang} value={form.translations[locale]?.[f.key] ?? ''} onChange={(v) => setTranslation(locale, f.key, v)} />
              ))}
              <button type="button" onClick={() => set('translations', Object.fromEntries(Object.entries(form.translations).filter(([k]) => k !== locale)))}>
                {`${l.removeTranslation} (${locale})`}
              </button>
            </fieldset>
          ))}
          <div class="inline-add">
            <Field label={l.locale}>{(id) => <input id={id} value={newLocale} onInput={(e) => setNewLocale(e.currentTarget.value)} />}</Field>
            <button type="button" disabled={!newLocale.trim()} onClick={() => { set('translations', { ...form.translations, [newLocale.trim()]: {} }); setNewLocale(''); }}>
              {l.addTranslation}
            </button>
          </div>
        </fieldset>
        <ErrorBox error={error} title={ctx.t('errorTitle')} />
        <Status text={status} />
        <div class="actions">
          <button type="submit" class="primary">{l.saveEmbedding}</button>
          <button type="button" onClick={onClose}>{l.close}</button>
        </div>
      </form>
      <AssetsPanel ctx={ctx} url={`${url}/asset`} headingId={`${headingId}-assets`} onChanged={onChanged} />
    </section>
  );
}

const emptyAsset = (): Values => ({ name: '', storageType: 'cookie', lifetime: '', description: '', dynamic: false, translations: {} });

/** The assets of one embedding: list, add, edit one in place, delete. */
function AssetsPanel({ ctx, url, headingId, onChanged }: { ctx: Ctx; url: string; headingId: string; onChanged: () => void }) {
  const l = L[ctx.lang];
  const [assets, setAssets] = useState<Asset[] | null>(null);
  const [editing, setEditing] = useState<string | null>(null); // an asset id, or null for a new one
  const [form, setForm] = useState<Values>(emptyAsset());
  // On failure the asset form keeps its values.
  const { act, error, setError, status } = useAction(async () => {
    await load();
    onChanged();
  });
  const [newLocale, setNewLocale] = useState('');
  const load = () => hosting<Asset[]>('GET', url).then(setAssets, setError);
  const translations = (form.translations ?? {}) as Record<string, Values>;
  const setTranslation = (locale: string, key: string, v: string) =>
    setForm({ ...form, translations: { ...translations, [locale]: { ...translations[locale], [key]: v } } });
  useEffect(() => void load(), [url]);
  const submit = (e: Event) => {
    e.preventDefault();
    const body = { ...form };
    delete body.id;
    // A new asset without the box ticked lets the API decide (a name with * is a pattern).
    if (editing === null && body.dynamic === false) delete body.dynamic;
    void act(
      () => (editing === null ? hosting('POST', url, body) : hosting('PUT', `${url}/${editing}`, body)),
      editing === null ? l.added : ctx.t('saved'),
      () => { setEditing(null); setForm(emptyAsset()); },
    );
  };
  return (
    <section aria-labelledby={headingId}>
      <h4 id={headingId}>{l.assets}</h4>
      {assets === null ? null : assets.length === 0 ? <p>{l.noAssets}</p> : (
        <ul class="list">
          {assets.map((a) => (
            <li key={a.id}>
              <code>{a.name}</code> · {String(a.storageType)} · {String(a.lifetime || '–')}{' '}
              <button type="button" aria-label={`${l.editAsset}: ${a.name}`} onClick={() => { setEditing(a.id); setForm({ ...a }); }}>{l.editAsset}</button>{' '}
              <button type="button" aria-label={`${l.remove}: ${a.name}`} onClick={() => act(() => hosting('DELETE', `${url}/${a.id}`), l.removed, () => { if (editing === a.id) { setEditing(null); setForm(emptyAsset()); } })}>{l.remove}</button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} aria-labelledby={`${headingId}-form`}>
        <h5 id={`${headingId}-form`}>{editing === null ? l.newAsset : `${l.editAsset}: ${assets?.find((a) => a.id === editing)?.name ?? ''}`}</h5>
        <div class="grid">
          {ASSET_FIELDS.filter((f) => f.kind !== 'textarea' && f.kind !== 'bool').map((f) => (
            <FieldInput key={f.key} field={f} lang={ctx.lang} value={form[f.key]} onChange={(v) => setForm({ ...form, [f.key]: v })} />
          ))}
        </div>
        {ASSET_FIELDS.filter((f) => f.kind === 'textarea' || f.kind === 'bool').map((f) => (
          <FieldInput key={f.key} field={f} lang={ctx.lang} value={form[f.key]} onChange={(v) => setForm({ ...form, [f.key]: v })} />
        ))}
        <fieldset>
          <legend>{l.translations}</legend>
          {Object.keys(translations).map((locale) => (
            <fieldset key={locale}>
              <legend>{`${l.translationFor} ${locale}`}</legend>
              <Field label={l.assetLifetime} help={l.emptyMain}>{(id, described) => <input id={id} aria-describedby={described} value={String(translations[locale]?.lifetime ?? '')} onInput={(e) => setTranslation(locale, 'lifetime', e.currentTarget.value)} />}</Field>
              <Field label={l.assetDescription} help={l.emptyMain}>{(id, described) => <textarea id={id} rows={2} aria-describedby={described} value={String(translations[locale]?.description ?? '')} onInput={(e) => setTranslation(locale, 'description', e.currentTarget.value)} />}</Field>
              <button type="button" onClick={() => setForm({ ...form, translations: Object.fromEntries(Object.entries(translations).filter(([k]) => k !== locale)) })}>
                {`${l.removeTranslation} (${locale})`}
              </button>
            </fieldset>
          ))}
          <div class="inline-add">
            <Field label={l.locale}>{(id) => <input id={id} value={newLocale} onInput={(e) => setNewLocale(e.currentTarget.value)} />}</Field>
            <button type="button" disabled={!newLocale.trim()} onClick={() => { setForm({ ...form, translations: { ...translations, [newLocale.trim()]: {} } }); setNewLocale(''); }}>
              {l.addTranslation}
            </button>
          </div>
        </fieldset>
        <ErrorBox error={error} title={ctx.t('errorTitle')} />
        <Status text={status} />
        <div class="actions">
          <button type="submit" class="primary">{editing === null ? l.addAsset : l.saveAsset}</button>
          {editing !== null && <button type="button" onClick={() => { setEditing(null); setForm(emptyAsset()); }}>{l.cancel}</button>}
        </div>
      </form>
    </section>
  );
}
