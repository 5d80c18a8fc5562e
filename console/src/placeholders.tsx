import { useEffect, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import type { Ctx } from './main.js';
import { ErrorBox, Field, Status, useAction } from './ui.js';

type Placeholder = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/placeholder'>[number];

const L = {
  en: { title: 'Placeholders', help: 'Text variables such as {COMPANY}, replaced in the embeddings\' texts.', none: 'No placeholders yet.', name: 'Placeholder name', value: 'Value', add: 'Add placeholder', remove: 'Delete', added: 'Added.', removed: 'Deleted.', edit: 'Change the value', valueOf: 'New value of', save: 'Save the value', cancel: 'Cancel' },
  de: { title: 'Platzhalter', help: 'Textvariablen wie {FIRMA}, die in den Texten der Einbindungen ersetzt werden.', none: 'Noch keine Platzhalter.', name: 'Name des Platzhalters', value: 'Wert', add: 'Platzhalter hinzufügen', remove: 'Löschen', added: 'Hinzugefügt.', removed: 'Gelöscht.', edit: 'Wert ändern', valueOf: 'Neuer Wert von', save: 'Wert speichern', cancel: 'Abbrechen' },
};

/** A domain's placeholders: list, add, delete (through the Hosting API's placeholder calls). */
export function PlaceholdersPanel({ ctx, base }: { ctx: Ctx; base: string }) {
  const l = L[ctx.lang];
  const [items, setItems] = useState<Placeholder[] | null>(null);
  const [form, setForm] = useState({ name: '', value: '' });
  const { act, error, setError, status } = useAction(() => load());
  const [editing, setEditing] = useState<{ name: string; value: string } | null>(null);
  const load = () => hosting<Placeholder[]>('GET', `${base}/placeholder`).then(setItems, setError);
  useEffect(() => void load(), [base]);
  return (
    <section class="card" aria-labelledby="placeholders">
      <h2 id="placeholders">{l.title}</h2>
      <p class="help">{l.help}</p>
      {items !== null && items.length === 0 && <p>{l.none}</p>}
      {items !== null && items.length > 0 && (
        <ul class="list">
          {items.map((p) => (
            <li key={p.name}>
              <code>{`{${p.name}}`}</code> = {p.value}{' '}
              {editing?.name === p.name ? (
                <form class="inline-add" onSubmit={(e) => { e.preventDefault(); void act(() => hosting('PUT', `${base}/placeholder/${encodeURIComponent(p.name)}`, { value: editing.value }).then(() => setEditing(null)), ctx.t('saved')); }}>
                  <Field label={`${l.valueOf} {${p.name}}`}>{(id) => <input id={id} value={editing.value} onInput={(e) => setEditing({ name: p.name, value: e.currentTarget.value })} />}</Field>
                  <button type="submit" class="primary">{l.save}</button>
                  <button type="button" onClick={() => setEditing(null)}>{l.cancel}</button>
                </form>
              ) : (
                <button type="button" aria-label={`${l.edit}: ${p.name}`} onClick={() => setEditing({ name: p.name, value: p.value })}>{l.edit}</button>
              )}{' '}
              <button type="button" aria-label={`${l.remove}: ${p.name}`} onClick={() => act(() => hosting('DELETE', `${base}/placeholder/${encodeURIComponent(p.name)}`), l.removed)}>
                {l.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => { e.preventDefault(); void act(() => hosting('POST', `${base}/placeholder`, form), l.added, () => setForm({ name: '', value: '' })); }}>
        <div class="grid">
          <Field label={l.name}>{(id) => <input id={id} required value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />}</Field>
          <Field label={l.value}>{(id) => <input id={id} value={form.value} onInput={(e) => setForm({ ...form, value: e.currentTarget.value })} />}</Field>
        </div>
        <button type="submit" class="primary">{l.add}</button>
      </form>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <Status text={status} />
    </section>
  );
}
