import type { Lang } from './i18n.js';
import { Check, Field } from './ui.js';

/**
 * A setting the console edits, with its label and help text per language. One description drives the
 * domain, embedding, asset and locale forms, so each field is labelled and explained the same way.
 */
export type FieldKind = 'text' | 'textarea' | 'number' | 'nullint' | 'bool' | 'select' | 'list' | 'intlist' | 'date' | 'multi';
export interface FormField {
  key: string;
  kind: FieldKind;
  options?: readonly string[];
  en: [label: string, help: string];
  de: [label: string, help: string];
}

export const fieldText = (field: FormField, lang: Lang) => (lang === 'de' ? field.de : field.en);

/** Turns a number field's text into what the API expects; an unparsable entry is sent as typed, so the API explains it. */
const toNumber = (text: string, nullable: boolean): unknown => {
  if (text.trim() === '') return nullable ? null : text;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
};

export function FieldInput({ field, lang, value, onChange }: { field: FormField; lang: Lang; value: unknown; onChange: (v: unknown) => void }) {
  const [label, help] = fieldText(field, lang);
  if (field.kind === 'bool') return <Check label={label} help={help} checked={value === true} onChange={onChange} />;
  if (field.kind === 'multi') {
    const chosen = new Set((value as string[] | undefined) ?? []);
    return (
      <fieldset aria-describedby={`${field.key}-help`}>
        <legend>{label}</legend>
        <p class="help" id={`${field.key}-help`}>{help}</p>
        {field.options!.map((o) => (
          <Check key={o} label={o} checked={chosen.has(o)} onChange={(on) => onChange(field.options!.filter((x) => (x === o ? on : chosen.has(x))))} />
        ))}
      </fieldset>
    );
  }
  return (
    <Field label={label} help={help}>
      {(id, described) => {
        switch (field.kind) {
          case 'select':
            return (
              <select id={id} aria-describedby={described} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)}>
                {field.options!.map((o) => <option value={o}>{o}</option>)}
              </select>
            );
          case 'list':
          case 'intlist':
            return (
              <textarea id={id} rows={3} aria-describedby={described} value={((value as unknown[] | undefined) ?? []).join('\n')}
                onInput={(e) => {
                  const lines = e.currentTarget.value.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
                  onChange(field.kind === 'intlist' ? lines.map((s) => toNumber(s, false)) : lines);
                }} />
            );
          case 'textarea':
            return <textarea id={id} rows={4} aria-describedby={described} value={(value as string | undefined) ?? ''} onInput={(e) => onChange(e.currentTarget.value)} />;
          case 'number':
          case 'nullint':
            return (
              <input id={id} inputMode="numeric" aria-describedby={described} value={value === null || value === undefined ? '' : String(value)}
                onInput={(e) => onChange(toNumber(e.currentTarget.value, field.kind === 'nullint'))} />
            );
          case 'date':
            return <input id={id} type="date" aria-describedby={described} value={(value as string | null) ?? ''} onInput={(e) => onChange(e.currentTarget.value || null)} />;
          default:
            return <input id={id} aria-describedby={described} value={(value as string | null) ?? ''} onInput={(e) => onChange(e.currentTarget.value)} />;
        }
      }}
    </Field>
  );
}

/** A group of fields under a heading-like legend. */
export function FieldGroup({ legend, fields, lang, values, onChange }: { legend: string; fields: readonly FormField[]; lang: Lang; values: Record<string, unknown>; onChange: (key: string, v: unknown) => void }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {fields.map((f) => <FieldInput key={f.key} field={f} lang={lang} value={values[f.key]} onChange={(v) => onChange(f.key, v)} />)}
    </fieldset>
  );
}
