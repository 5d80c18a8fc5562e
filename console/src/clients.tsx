import { useEffect, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import { DomainsPanel } from './domains.js';
import type { Ctx } from './main.js';
import { Check, ErrorBox, Field, PageTitle, Status, useAction } from './ui.js';

export type Client = Answer<'/hosting/api/client/{clientId}'>;
/** A client in the list, which also counts this month's widget loads. */
type ListedClient = Answer<'/hosting/api/client'>[number];

const quota = (used: number, max: number) => (max === -1 ? `${used} / ∞` : `${used} / ${max}`);

export function ClientsView({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  const [clients, setClients] = useState<ListedClient[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => hosting<ListedClient[]>('GET', '/client').then(setClients, setError);
  useEffect(() => void load(), []);
  return (
    <>
      <PageTitle>{t('clients')}</PageTitle>
      <ErrorBox error={error} title={t('errorTitle')} />
      {clients === null ? (
        <p>{t('loading')}</p>
      ) : clients.length === 0 ? (
        <p>{t('noClients')}</p>
      ) : (
        <div class="table-wrap" role="region" tabIndex={0} aria-label={t('clients')}>
          <table>
            <caption class="sr-only">{t('clients')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('username')}</th>
                <th scope="col">{t('company')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col">{t('domains')}</th>
                <th scope="col">{t('callsThisMonth')}</th>
              </tr>
            </thead>
            <tbody>
              {clients.map((c) => (
                <tr key={c.id}>
                  <th scope="row"><a href={`#/clients/${c.id}`}>{c.username}</a></th>
                  <td>{c.company}</td>
                  <td>{c.active ? t('isActive') : t('isInactive')}</td>
                  <td>{quota(c.domainCount, c.domainMaxCount)}</td>
                  <td>{quota(c.actualCallCount, c.widgetDisplayMaxCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NewClient ctx={ctx} onCreated={() => void load()} />
    </>
  );
}

function NewClient({ ctx, onCreated }: { ctx: Ctx; onCreated: () => void }) {
  const { t } = ctx;
  const empty = { username: '', emailAddress: '', password: '', company: '', active: true };
  const [form, setForm] = useState(empty);
  const { act, error, status } = useAction(onCreated); // on failure the form keeps what was typed
  const submit = (e: Event) => {
    e.preventDefault();
    void act(() => hosting('POST', '/client', form), t('created'), () => setForm(empty));
  };
  const text = (key: 'username' | 'emailAddress' | 'password' | 'company', label: string, type: 'text' | 'email' | 'password' = 'text', help?: string) => (
    <Field label={label} help={help}>
      {(id, described) => (
        <input id={id} type={type as "text"} aria-describedby={described} value={form[key]} onInput={(e) => setForm({ ...form, [key]: e.currentTarget.value })} />
      )}
    </Field>
  );
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-client">
      <h2 id="new-client">{t('newClient')}</h2>
      <div class="grid">
        {text('username', t('username'))}
        {text('emailAddress', t('email'), 'email')}
        {text('password', t('password'), 'password')}
        {text('company', t('company'))}
      </div>
      <Check label={t('active')} checked={form.active} onChange={(active) => setForm({ ...form, active })} />
      <ErrorBox error={error} title={t('errorTitle')} />
      <Status text={status} />
      <button type="submit" class="primary">{t('create')}</button>
    </form>
  );
}

export function ClientView({ ctx, clientId }: { ctx: Ctx; clientId: string }) {
  const { t } = ctx;
  const [client, setClient] = useState<Client | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void hosting<Client>('GET', `/client/${clientId}`).then(setClient, setError), [clientId]);
  if (!client) return error ? <ErrorBox error={error} title={t('errorTitle')} /> : <p>{t('loading')}</p>;
  return (
    <>
      {ctx.session.role === 'agency' && <p><a href="#/">← {t('clients')}</a></p>}
      <PageTitle>{client.company || client.username}</PageTitle>
      {ctx.session.role === 'agency' && <ClientForm ctx={ctx} client={client} onSaved={setClient} />}
      <DomainsPanel ctx={ctx} clientId={clientId} />
      {/* Without canUseDomAPI the server refuses a key (README, "Feature flags"): no button that can only fail. */}
      {client.features.canUseDomAPI !== false && <DomainApiKey ctx={ctx} clientId={clientId} />}
    </>
  );
}

const FEATURES: (keyof Client['features'])[] = ['canUseABTests', 'canUseAnalytics', 'canUseConsentSharing', 'canUseDomAPI', 'canUseIAB', 'canUseIframeCSS', 'canUseIframes', 'canUseIndCSS', 'canUseMultiDom', 'canUseOwnLogo', 'canUseScripts', 'canUseUserGroupRights', 'moreThan2Lang'];

function ClientForm({ ctx, client, onSaved }: { ctx: Ctx; client: Client; onSaved: (c: Client) => void }) {
  const { t } = ctx;
  const [form, setForm] = useState({ ...client, password: '' });
  const { act, error, status } = useAction();
  const save = async (changes: Partial<typeof form>) => {
    const { password, ...rest } = { ...form, ...changes };
    await act(() => hosting<Client>('PUT', `/client/${client.id}`, password ? { ...rest, password } : rest), t('saved'), (saved) => {
      setForm({ ...saved, password: '' });
      onSaved(saved);
    });
  };
  const text = (key: 'username' | 'firstName' | 'lastName' | 'company' | 'emailAddress' | 'password', label: string, type: 'text' | 'email' | 'password' = 'text', help?: string) => (
    <Field label={label} help={help}>
      {(id, described) => <input id={id} type={type as "text"} aria-describedby={described} value={form[key]} onInput={(e) => setForm({ ...form, [key]: e.currentTarget.value })} />}
    </Field>
  );
  const num = (key: 'domainMaxCount' | 'whitelabelMaxCount' | 'widgetDisplayMaxCount', label: string) => (
    <Field label={label} help={t('quotaHelp')}>
      {(id, described) => (
        <input id={id} type="number" min={-1} step={1} aria-describedby={described} value={form[key]} onInput={(e) => setForm({ ...form, [key]: Number(e.currentTarget.value) })} />
      )}
    </Field>
  );
  return (
    <form class="card" aria-labelledby="account" onSubmit={(e) => { e.preventDefault(); void save({}); }}>
      <h2 id="account">{t('account')}</h2>
      <div class="grid">
        {text('username', t('username'))}
        {text('emailAddress', t('email'), 'email')}
        {text('firstName', t('firstName'))}
        {text('lastName', t('lastName'))}
        {text('company', t('company'))}
        {text('password', t('password'), 'password', t('passwordHelp'))}
      </div>
      <Check label={t('active')} checked={form.active} onChange={(active) => setForm({ ...form, active })} />
      <fieldset>
        <legend>{t('quotas')}</legend>
        <div class="grid">
          {num('domainMaxCount', t('domainMaxCount'))}
          {num('whitelabelMaxCount', t('whitelabelMaxCount'))}
          {num('widgetDisplayMaxCount', t('widgetDisplayMaxCount'))}
        </div>
      </fieldset>
      <fieldset>
        <legend>{t('features')}</legend>
        <div class="grid">
          {FEATURES.map((f) => (
            <Check label={f} checked={form.features[f] ?? true} onChange={(v) => setForm({ ...form, features: { ...form.features, [f]: v } })} />
          ))}
        </div>
      </fieldset>
      <ErrorBox error={error} title={t('errorTitle')} />
      <Status text={status} />
      <div class="actions">
        <button type="submit" class="primary">{t('save')}</button>
        <button type="button" onClick={() => void save({ active: !form.active })}>{form.active ? t('deactivate') : t('activate')}</button>
      </div>
    </form>
  );
}

function DomainApiKey({ ctx, clientId }: { ctx: Ctx; clientId: string }) {
  const { t } = ctx;
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const rotate = async () => {
    setError(null);
    try {
      setKey((await hosting<{ apiKey: string }>('POST', `/client/${clientId}/domain-api-key`)).apiKey);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section class="card" aria-labelledby="dak">
      <h2 id="dak">{t('domainApiKey')}</h2>
      <p class="help">{t('domainApiKeyHelp')}</p>
      <button type="button" onClick={rotate}>{t('rotate')}</button>
      {key && <p role="status">{t('newKey')} <code class="key">{key}</code></p>}
      <ErrorBox error={error} title={t('errorTitle')} />
    </section>
  );
}
