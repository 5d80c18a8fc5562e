import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

/** An error in the words of the API's `message`, with each offending field; announced to screen readers. */
export function ErrorBox({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  const e = error instanceof ApiError ? error : new ApiError(0, 'UNKNOWN', String((error as Error).message ?? error));
  return (
    <div class="error" role="alert">
      <strong>{title}:</strong> {e.message}
      {e.details.length > 0 && (
        <ul>
          {e.details.map((d) => (
            <li>{d.field ? `${d.field.replace(/^body\./, '')}: ` : ''}{d.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Status({ text }: { text: string }) {
  return (
    <p class="status" role="status" aria-live="polite">
      {text}
    </p>
  );
}

/**
 * A heading that takes the focus as soon as it is in the page: a layout effect, because a plain effect runs only
 * after the next paint, and a keystroke or a test that read the focus in between found it still on the button.
 */
const useFocusOnMount = () => {
  const ref = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => ref.current?.focus(), []);
  return ref;
};

/** The page heading; takes the focus when the view changes, so screen readers announce the new page. */
export function PageTitle({ children }: { children: ComponentChildren }) {
  const ref = useFocusOnMount();
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

let counter = 0;
export const useId = () => {
  const ref = useRef<string | undefined>(undefined);
  if (!ref.current) ref.current = `f${++counter}`;
  return ref.current;
};

interface FieldProps {
  label: string;
  help?: string;
  children: (id: string, describedBy: string | undefined) => ComponentChildren;
}

export function Field({ label, help, children }: FieldProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id, help ? `${id}-help` : undefined)}
      {help && (
        <p class="help" id={`${id}-help`}>
          {help}
        </p>
      )}
    </div>
  );
}

export function Check({ label, help, checked, onChange }: { label: string; help?: string; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div class="field check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={help ? `${id}-help` : undefined}
        onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>{label}</label>
      {help && (
        <p class="help" id={`${id}-help`}>
          {help}
        </p>
      )}
    </div>
  );
}

/** A section heading that takes the focus when it appears (an editor opened by a button), so keyboard and screen-reader users land in it. */
export function FocusHeading({ id, level = 3, children }: { id: string; level?: 2 | 3; children: ComponentChildren }) {
  const ref = useFocusOnMount();
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <H id={id} tabIndex={-1} ref={ref}>
      {children}
    </H>
  );
}

/**
 * A long request (a scan, an audit) shown running with the seconds so far: it is one call, so the console can
 * only show that it works and for how long (the time limit is the server's). `track` runs the work so.
 */
export function useProgress() {
  const [since, setSince] = useState<number | null>(null);
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setSeconds(Math.round((Date.now() - since) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [since]);
  const track = async (work: () => Promise<void>) => {
    setSeconds(0);
    setSince(Date.now());
    try {
      await work();
    } finally {
      setSince(null);
    }
  };
  return { busy: since !== null, track, seconds };
}

/** The bar and the words of a running `useProgress`. */
export function Progress({ label, text, seconds, elapsed }: { label: string; text: string; seconds: number; elapsed: string }) {
  return (
    <div class="progress">
      <progress aria-label={label} />
      <span>{text} {seconds} {elapsed}</span>
    </div>
  );
}

/**
 * What a section's buttons and forms share: clear the last message, do the work, say it is done and reload,
 * or show the API's error (what was typed stays, as nothing is reset on failure). `after` gets the work's
 * result before the status is set (`done` may be made from it too); `act` answers whether the work
 * succeeded, so a caller can close an editor.
 */
export function useAction(reload: () => unknown = () => undefined) {
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const act = async <T,>(work: () => Promise<T>, done: string | ((result: T) => string), after?: (result: T) => void): Promise<boolean> => {
    setError(null);
    setStatus('');
    try {
      const result = await work();
      after?.(result);
      setStatus(typeof done === 'string' ? done : done(result));
      await reload();
      return true;
    } catch (err) {
      setError(err);
      return false;
    }
  };
  return { act, error, setError, status, setStatus };
}
