import { useEffect, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import { ConsentLogPanel } from './consent-log.js';
import { EmbeddingsPanel } from './embeddings.js';
import { FoundPanel } from './found.js';
import { AuditPanel } from './audit.js';
import { LocalesPanel } from './locales.js';
import { ThemesPanel } from './themes.js';
import { OnboardingPanel } from './onboarding.js';
import { Snippet } from './snippet.js';
import { PlaceholdersPanel } from './placeholders.js';
import { StatisticsPanel } from './statistics.js';
import { DOMAIN_FIELDS, DOMAIN_GROUPS } from './domain-fields.js';
import { FieldGroup } from './form-fields.js';
import type { Ctx } from './main.js';
import { ErrorBox, Field, PageTitle, Status, useAction } from './ui.js';

// The settings form walks the fields by key (domain-fields.ts), hence the index signature.
type Domain = Answer<'/hosting/api/client/{clientId}/domain/{domainId}'> & Record<string, unknown>;

export function DomainsPanel({ ctx, clientId }: { ctx: Ctx; clientId: string }) {
  const { t } = ctx;
  const [domains, setDomains] = useState<Domain[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [name, setName] = useState('');
  const { act, error: createError, status } = useAction(() => load());
  const load = () => hosting<Domain[]>('GET', `/client/${clientId}/domain`).then(setDomains, setError);
  useEffect(() => void load(), [clientId]);
  const create = (e: Event) => {
    e.preventDefault();
    void act(() => hosting('POST', `/client/${clientId}/domain`, { name }), t('created'), () => setName(''));
  };
  return (
    <section class="card" aria-labelledby="domains">
      <h2 id="domains">{t('domains')}</h2>
      <ErrorBox error={error} title={t('errorTitle')} />
      {domains === null ? (
        <p>{t('loading')}</p>
      ) : domains.length === 0 ? (
        <p>{t('noDomains')}</p>
      ) : (
        <ul class="list">
          {domains.map((d) => (
            <li key={d.id}>
              <a href={`#/clients/${clientId}/domains/${d.id}`}>{`${d.name}${d.path === '/' ? '' : d.path}`}</a> <code>{d.id}</code>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create} aria-labelledby="new-domain">
        <h3 id="new-domain">{t('newDomain')}</h3>
        <Field label={t('domainName')} help={t('domainNameHelp')}>
          {(id, described) => <input id={id} required aria-describedby={described} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <ErrorBox error={createError} title={t('errorTitle')} />
        <Status text={status} />
        <button type="submit" class="primary">{t('create')}</button>
      </form>
    </section>
  );
}

export function DomainView({ ctx, clientId, domainId }: { ctx: Ctx; clientId: string; domainId: string }) {
  const { t } = ctx;
  const base = `/client/${clientId}/domain/${domainId}`;
  const [domain, setDomain] = useState<Domain | null>(null);
  const [form, setForm] = useState<Domain | null>(null);
  const [error, setError] = useState<unknown>(null);
  const { act, error: saveError, status } = useAction(); // on failure what was typed stays in the form
  const [imports, setImports] = useState(0); // bumped by the onboarding import, so the embeddings list reloads
  useEffect(() => void hosting<Domain>('GET', base).then((d) => { setDomain(d); setForm(d); }, setError), [base]);
  if (!domain || !form) return error ? <ErrorBox error={error} title={t('errorTitle')} /> : <p>{t('loading')}</p>;
  const save = (e: Event) => {
    e.preventDefault();
    // Only what changed is sent: an unchanged white-label flag is not counted again, an unchanged host keeps the path.
    const body: Record<string, unknown> = Object.fromEntries(
      DOMAIN_FIELDS.filter((f) => JSON.stringify(form[f.key]) !== JSON.stringify(domain[f.key])).map((f) => [f.key, form[f.key]]),
    );
    if (body.country === '') body.country = null;
    // The API reads a name without a path as path `/`: a new host keeps the domain's path.
    if ('name' in body) body.name = `${String(form.name)}${domain.path === '/' ? '' : domain.path}`;
    void act(() => hosting<Domain>('PUT', base, body), t('saved'), (saved) => {
      setDomain(saved);
      setForm(saved);
    });
  };
  return (
    <>
      <p><a href={`#/clients/${clientId}`}>← {t('domains')}</a></p>
      <PageTitle>{`${domain.name}${domain.path === '/' ? '' : domain.path}`}</PageTitle>
      <Snippet ctx={ctx} base={base} />
      <OnboardingPanel ctx={ctx} base={base} onImported={() => setImports(imports + 1)} />
      <EmbeddingsPanel key={imports} ctx={ctx} base={base} />
      <FoundPanel ctx={ctx} base={base} onAdopted={() => setImports(imports + 1)} />
      <AuditPanel ctx={ctx} base={base} />
      <LocalesPanel ctx={ctx} base={base} />
      <ThemesPanel ctx={ctx} base={base} />
      <PlaceholdersPanel ctx={ctx} base={base} />
      <ConsentLogPanel ctx={ctx} base={base} domainId={domainId} />
      <StatisticsPanel ctx={ctx} base={base} />
      <form class="card" onSubmit={save} aria-labelledby="settings">
        <h2 id="settings">{t('settings')}</h2>
        {DOMAIN_GROUPS.map((g) => (
          <FieldGroup key={g.en} legend={ctx.lang === 'de' ? g.de : g.en} fields={g.fields} lang={ctx.lang} values={form} onChange={(key, v) => setForm({ ...form, [key]: v })} />
        ))}
        <ErrorBox error={saveError} title={t('errorTitle')} />
        <Status text={status} />
        <button type="submit" class="primary">{t('save')}</button>
      </form>
    </>
  );
}
