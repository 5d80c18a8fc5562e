import { useEffect, useState } from 'preact/hooks';
import { hosting } from './api.js';
import type { Ctx } from './main.js';
import { ErrorBox, Status } from './ui.js';

/** The snippet with a copy button; `id` keeps the ids unique when the onboarding steps show it a second time. */
export function Snippet({ ctx, base, id = 'snippet', inline = false }: { ctx: Ctx; base: string; id?: string; inline?: boolean }) {
  const { t } = ctx;
  const [snippet, setSnippet] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  useEffect(() => void hosting<Record<string, string>>('GET', `${base}/onboarding/embed`).then((s) => setSnippet(s.default ?? ''), setError), [base]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setStatus(t('copied'));
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section class={inline ? 'step' : 'card'} aria-labelledby={id}>
      {inline ? <h3 id={id}>{t('snippet')}</h3> : <h2 id={id}>{t('snippet')}</h2>}
      <p class="help" id={`${id}-help`}>{t('snippetHelp')}</p>
      <pre class="snippet" aria-describedby={`${id}-help`}><code>{snippet}</code></pre>
      <button type="button" onClick={copy} disabled={!snippet}>{t('copy')}</button>
      <Status text={status} />
      <ErrorBox error={error} title={t('errorTitle')} />
    </section>
  );
}
