import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, setCsrf, type Session } from './api.js';
import { initialLang, rememberLang, texts, type Lang, type TextKey } from './i18n.js';
import { ClientView, ClientsView } from './clients.js';
import { DomainView } from './domains.js';
import { ErrorBox, Field, PageTitle } from './ui.js';

export type T = (key: TextKey) => string;
export interface Ctx {
  t: T;
  lang: Lang;
  session: Session;
}

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

function App() {
  const [lang, setLang] = useState<Lang>(initialLang());
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const t: T = (key) => texts(lang)[key];
  useEffect(() => rememberLang(lang), [lang]);
  useEffect(() => {
    call<Session>('GET', 'api/session')
      .then((s) => {
        setCsrf(s.csrfToken);
        setSession(s);
      })
      .catch(() => setSession(null));
  }, []);
  const hash = useHash();

  const toggle = (
    <button type="button" class="link" lang={lang === 'de' ? 'en' : 'de'} aria-label={t('languageLabel')} onClick={() => setLang(lang === 'de' ? 'en' : 'de')}>
      {t('language')}
    </button>
  );
  if (session === undefined) return <p>{t('loading')}</p>;
  if (session === null) {
    return (
      <>
        <header class="top">
          <span class="brand">{t('title')}</span>
          {toggle}
        </header>
        <main id="main">
          <Login t={t} onSignedIn={(s) => { setCsrf(s.csrfToken); setSession(s); location.hash = '#/'; }} />
        </main>
      </>
    );
  }
  const signOut = async () => {
    await call('DELETE', 'api/session').catch(() => undefined);
    setCsrf('');
    setSession(null);
  };
  const ctx: Ctx = { t, lang, session };
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>{t('skip')}</a>
      <header class="top">
        <a class="brand" href="#/">{t('title')}</a>
        <span class="who">{session.role === 'agency' ? t('signedInAgency') : t('signedInClient')}</span>
        {toggle}
        <button type="button" onClick={signOut}>{t('signOut')}</button>
      </header>
      <main id="main" tabIndex={-1}>
        <Route ctx={ctx} hash={hash} />
      </main>
    </>
  );
}

function Route({ ctx, hash }: { ctx: Ctx; hash: string }) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const own = ctx.session.clientId;
  if (parts[0] === 'clients' && parts[1] && parts[2] === 'domains' && parts[3]) {
    return <DomainView key={hash} ctx={ctx} clientId={parts[1]} domainId={parts[3]} />;
  }
  if (parts[0] === 'clients' && parts[1]) return <ClientView key={hash} ctx={ctx} clientId={parts[1]} />;
  if (own) return <ClientView key={own} ctx={ctx} clientId={own} />;
  return <ClientsView ctx={ctx} />;
}

function Login({ t, onSignedIn }: { t: T; onSignedIn: (s: Session) => void }) {
  const [role, setRole] = useState<'agency' | 'client'>('client');
  const [key, setKey] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = role === 'agency' ? { role, key } : { role, username, password };
      onSignedIn(await call<Session>('POST', 'api/session', body));
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'UNKNOWN', String(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card narrow" onSubmit={submit}>
      <PageTitle>{t('signIn')}</PageTitle>
      <fieldset>
        <legend>{t('signInAs')}</legend>
        <label class="radio"><input type="radio" name="role" checked={role === 'client'} onChange={() => setRole('client')} /> {t('client')}</label>
        <label class="radio"><input type="radio" name="role" checked={role === 'agency'} onChange={() => setRole('agency')} /> {t('agency')}</label>
      </fieldset>
      {role === 'agency' ? (
        <Field label={t('hostingKey')} help={t('hostingKeyHelp')}>
          {(id, help) => <input id={id} type="password" autocomplete="current-password" required aria-describedby={help} value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
        </Field>
      ) : (
        <>
          <Field label={t('username')}>
            {(id) => <input id={id} autocomplete="username" required value={username} onInput={(e) => setUsername(e.currentTarget.value)} />}
          </Field>
          <Field label={t('password')}>
            {(id) => <input id={id} type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
          </Field>
        </>
      )}
      <ErrorBox error={error} title={t('errorTitle')} />
      <button type="submit" class="primary" disabled={busy}>{t('signIn')}</button>
    </form>
  );
}

render(<App />, document.getElementById('app')!);
