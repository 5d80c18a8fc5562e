import { useEffect, useRef, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import { FieldGroup } from './form-fields.js';
import type { Ctx } from './main.js';
import { THEME_BEHAVIOUR_FIELDS, THEME_COLORS, THEME_CSS_FIELDS, THEME_LAYOUT_FIELDS } from './theme-fields.js';
import { Check, ErrorBox, Field, FocusHeading, Status, useAction } from './ui.js';

// The editor walks the settings by key (theme-fields.ts), hence the index signature.
type Theme = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/theme/{themeId}'> & Record<string, unknown>;

const L = {
  en: { title: 'Themes', help: 'How the banner looks. The default theme is used unless a snippet names another (&theme=…).', isDefault: 'default', edit: 'Edit', remove: 'Delete', removed: 'Deleted.', add: 'Add a theme', added: 'Added.', name: 'Name', makeDefault: 'Default theme of the domain', layout: 'Layout and buttons', behaviour: 'Behaviour', colors: 'Colours', css: 'Own CSS', save: 'Save the theme', close: 'Close the editor', editing: 'Theme', preview: 'Live preview', previewHelp: 'The domain\'s real widget with the settings above, before they are saved, as a visitor sees it at first. Clicks in the preview are not recorded.', previewLang: 'Preview language', desktop: 'Preview at desktop width (1280 px)', mobile: 'Preview at mobile width (390 px)', updating: 'Updating the preview…', updated: 'Preview updated.', samplePage: 'A page of your site', images: 'Images', logo: 'Logo', icon: 'Settings icon image', imageHelp: (kib: number) => `PNG or JPEG, at most ${kib} KiB. Saved at once.`, none: 'none', saved: 'an image is saved', removeImage: 'Remove', imageSaved: 'Image saved.', imageRemoved: 'Image removed.', sampleText: 'This stands for your website. The banner over it is the real Placet widget with the theme being edited.' },
  de: { title: 'Themes', help: 'Wie das Banner aussieht. Es gilt das Standard-Theme, außer ein Einbettungscode nennt ein anderes (&theme=…).', isDefault: 'Standard', edit: 'Bearbeiten', remove: 'Löschen', removed: 'Gelöscht.', add: 'Theme hinzufügen', added: 'Hinzugefügt.', name: 'Name', makeDefault: 'Standard-Theme der Domain', layout: 'Aufbau und Knöpfe', behaviour: 'Verhalten', colors: 'Farben', css: 'Eigenes CSS', save: 'Theme speichern', close: 'Editor schließen', editing: 'Theme', preview: 'Live-Vorschau', previewHelp: 'Das echte Widget der Domain mit den Einstellungen oben, schon vor dem Speichern, wie Besucher es zuerst sehen. Klicks in der Vorschau werden nicht protokolliert.', previewLang: 'Sprache der Vorschau', desktop: 'Vorschau in Desktop-Breite (1280 px)', mobile: 'Vorschau in Handy-Breite (390 px)', updating: 'Vorschau wird aktualisiert…', updated: 'Vorschau aktualisiert.', samplePage: 'Eine Seite Ihrer Website', images: 'Bilder', logo: 'Logo', icon: 'Bild des Einstellungs-Symbols', imageHelp: (kib: number) => `PNG oder JPEG, höchstens ${kib} KiB. Wird sofort gespeichert.`, none: 'keines', saved: 'ein Bild ist gespeichert', removeImage: 'Entfernen', imageSaved: 'Bild gespeichert.', imageRemoved: 'Bild entfernt.', sampleText: 'Dies steht für Ihre Website. Das Banner darüber ist das echte Placet-Widget mit dem bearbeiteten Theme.' },
};

/** A domain's themes: list, add, delete, and an editor with a live preview of the real widget. */
export function ThemesPanel({ ctx, base }: { ctx: Ctx; base: string }) {
  const l = L[ctx.lang];
  const [items, setItems] = useState<Theme[] | null>(null);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const { act, error, setError, status } = useAction(() => load());
  const load = () => hosting<Theme[]>('GET', `${base}/theme`).then(setItems, setError);
  useEffect(() => void load(), [base]);
  return (
    <section class="card" aria-labelledby="themes">
      <h2 id="themes">{l.title}</h2>
      <p class="help">{l.help}</p>
      {items && (
        <ul class="list">
          {items.map((th) => (
            <li key={th.id}>
              <strong>{th.name}</strong>{th.default ? ` · ${l.isDefault}` : ''}{' '}
              <button type="button" aria-label={`${l.edit}: ${th.name}`} aria-expanded={editing === th.id} onClick={() => setEditing(editing === th.id ? null : th.id)}>{l.edit}</button>{' '}
              <button type="button" aria-label={`${l.remove}: ${th.name}`} onClick={() => act(() => hosting('DELETE', `${base}/theme/${th.id}`), l.removed, () => editing === th.id && setEditing(null))}>{l.remove}</button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-add" onSubmit={(e) => { e.preventDefault(); void act(() => hosting<Theme>('POST', `${base}/theme`, { name }), l.added, (t) => { setEditing(t.id); setName(''); }); }}>
        <Field label={l.name}>{(id) => <input id={id} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
        <button type="submit">{l.add}</button>
      </form>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <Status text={status} />
      {editing && <ThemeEditor key={editing} ctx={ctx} base={base} themeId={editing} onSaved={() => void load()} onClose={() => setEditing(null)} />}
    </section>
  );
}

function ThemeEditor({ ctx, base, themeId, onSaved, onClose }: { ctx: Ctx; base: string; themeId: string; onSaved: () => void; onClose: () => void }) {
  const l = L[ctx.lang];
  const url = `${base}/theme/${themeId}`;
  const [form, setForm] = useState<Theme | null>(null);
  const { act, error, setError, status } = useAction(onSaved); // on failure the form keeps every setting
  useEffect(() => void hosting<Theme>('GET', url).then(setForm, setError), [url]);
  if (!form) return error ? <ErrorBox error={error} title={ctx.t('errorTitle')} /> : <p>{ctx.t('loading')}</p>;
  const set = (key: string, v: unknown) => setForm({ ...form, [key]: v });
  const save = (e: Event) => {
    e.preventDefault();
    // The images are not edited here: sending them back unchanged would only re-upload them.
    const body: Record<string, unknown> = { ...form };
    for (const k of ['id', 'logoImage', 'settingsIconImage']) delete body[k];
    void act(() => hosting<Theme>('PUT', url, body), ctx.t('saved'), setForm);
  };
  const de = ctx.lang === 'de';
  return (
    <div class="editor theme-editor">
      <form onSubmit={save} aria-labelledby="theme-editor">
        <FocusHeading id="theme-editor">{`${l.editing}: ${form.name}`}</FocusHeading>
        <div class="grid">
          <Field label={l.name}>{(id) => <input id={id} required value={form.name} onInput={(e) => set('name', e.currentTarget.value)} />}</Field>
        </div>
        <Check label={l.makeDefault} checked={form.default} onChange={(v) => set('default', v)} />
        <FieldGroup legend={l.layout} fields={THEME_LAYOUT_FIELDS} lang={ctx.lang} values={form} onChange={set} />
        <fieldset>
          <legend>{l.colors}</legend>
          <div class="colors">
            {THEME_COLORS.map(([key, en, deLabel]) => (
              <Field key={key} label={de ? deLabel : en}>
                {(id) => (
                  <div class="color">
                    <input id={id} type="color" value={String(form[key])} onInput={(e) => set(key, e.currentTarget.value)} />
                    <code aria-hidden="true">{String(form[key])}</code>
                  </div>
                )}
              </Field>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>{l.images}</legend>
          <ImageField ctx={ctx} url={url} field="logoImage" label={l.logo} kib={512} value={form.logoImage as string | null} onSaved={(t) => setForm({ ...form, logoImage: t.logoImage })} />
          <ImageField ctx={ctx} url={url} field="settingsIconImage" label={l.icon} kib={64} value={form.settingsIconImage as string | null} onSaved={(t) => setForm({ ...form, settingsIconImage: t.settingsIconImage })} />
        </fieldset>
        <FieldGroup legend={l.behaviour} fields={THEME_BEHAVIOUR_FIELDS} lang={ctx.lang} values={form} onChange={set} />
        <FieldGroup legend={l.css} fields={THEME_CSS_FIELDS} lang={ctx.lang} values={form} onChange={set} />
        <ErrorBox error={error} title={ctx.t('errorTitle')} />
        <Status text={status} />
        <div class="actions">
          <button type="submit" class="primary">{l.save}</button>
          <button type="button" onClick={onClose}>{l.close}</button>
        </div>
      </form>
      <Preview ctx={ctx} base={base} themeId={themeId} theme={form} />
    </div>
  );
}

/**
 * One of the theme's two images: chosen from a file, sent at once as a data: URL (the Hosting API checks type
 * and size by the bytes and explains a refusal), or removed. Only this field is sent, so the rest of the form is
 * neither saved nor lost.
 */
function ImageField({ ctx, url, field, label, kib, value, onSaved }: { ctx: Ctx; url: string; field: 'logoImage' | 'settingsIconImage'; label: string; kib: number; value: string | null; onSaved: (t: Theme) => void }) {
  const l = L[ctx.lang];
  const { act, error, status } = useAction();
  const put = (image: string | null) => act(() => hosting<Theme>('PUT', url, { [field]: image }), image === null ? l.imageRemoved : l.imageSaved, onSaved);
  const choose = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => void put(String(reader.result));
    reader.readAsDataURL(file);
  };
  const id = `image-${field}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="image-row">
        {value ? <img src={value.startsWith('data:') ? value : `data:image/png;base64,${value}`} alt="" class="thumb" /> : null}
        <span>{value ? l.saved : l.none}</span>
        <input id={id} type="file" accept="image/png,image/jpeg" aria-describedby={`${id}-help`} onChange={(e) => choose(e.currentTarget)} />
        {value && <button type="button" aria-label={`${l.removeImage}: ${label}`} onClick={() => void put(null)}>{l.removeImage}</button>}
      </div>
      <p class="help" id={`${id}-help`}>{l.imageHelp(kib)}</p>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <Status text={status} />
    </div>
  );
}

/** Script text safe inside an HTML <script> element (no early `</script>` or comment opener). */
const inlineScript = (js: string) => js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

/**
 * The real widget in two sandboxed frames (scripts only, an opaque origin: no cookies or storage of the
 * console), refreshed a moment after each change from `POST …/theme/preview`. Frames render at their real
 * width and are scaled down to fit, so the mobile layout is the one a 390 px phone gets.
 */
function Preview({ ctx, base, themeId, theme }: { ctx: Ctx; base: string; themeId: string; theme: Theme }) {
  const l = L[ctx.lang];
  const [lang, setLang] = useState(ctx.lang);
  const [doc, setDoc] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const settings = JSON.stringify(theme);
  useEffect(() => {
    setStatus(l.updating);
    const timer = setTimeout(async () => {
      try {
        const body: Record<string, unknown> = { ...theme };
        for (const k of ['id', 'name', 'default', 'logoImage', 'settingsIconImage']) delete body[k];
        const { script } = await hosting<{ script: string }>('POST', `${base}/theme/preview`, { themeId, lang, theme: body });
        setError(null);
        setDoc(
          `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
          `<script>${inlineScript(script)}</script></head><body style="font-family:system-ui,sans-serif;margin:2rem;color:#1f2937">` +
          `<h1>${l.samplePage}</h1><p>${l.sampleText}</p></body></html>`,
        );
        setStatus(l.updated);
      } catch (err) {
        setError(err); // a refused setting (e.g. a bad colour) is explained; the last good preview stays
        setStatus('');
      }
    }, 400);
    return () => clearTimeout(timer);
  }, [settings, lang, base, themeId]);
  return (
    <section class="preview" aria-labelledby="theme-preview">
      <h4 id="theme-preview">{l.preview}</h4>
      <p class="help">{l.previewHelp}</p>
      <div class="grid">
        <Field label={l.previewLang}>
          {(id) => (
            <select id={id} value={lang} onChange={(e) => setLang(e.currentTarget.value as typeof lang)}>
              <option value="en">English</option>
              <option value="de">Deutsch</option>
            </select>
          )}
        </Field>
      </div>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <Status text={status} />
      <div class="frames">
        <ScaledFrame title={l.desktop} width={1280} height={800} doc={doc} />
        <ScaledFrame title={l.mobile} width={390} height={844} doc={doc} />
      </div>
    </section>
  );
}

function ScaledFrame({ title, width, height, doc }: { title: string; width: number; height: number; doc: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0.4);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The frame keeps its real width; the box scales it to the room there is (at most half size for desktop).
    const fit = () => setScale(Math.min(1, el.clientWidth / width));
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [width]);
  return (
    <figure class={width > 500 ? 'frame desktop' : 'frame mobile'}>
      <figcaption>{title}</figcaption>
      <div ref={box} class="frame-box" style={{ height: `${Math.round(height * scale)}px` }}>
        <iframe title={title} sandbox="allow-scripts" srcdoc={doc} width={width} height={height}
          style={{ transform: `scale(${scale})`, transformOrigin: '0 0', width: `${width}px`, height: `${height}px` }} />
      </div>
    </figure>
  );
}
