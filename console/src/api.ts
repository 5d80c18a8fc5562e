/** Calls the same HTTP APIs as any integration, with the session cookie and the CSRF token. */
import type { paths } from './placet-api.js';

/**
 * The JSON body of a successful answer, from the types generated from the OpenAPI document
 * (`npm run openapi:types`), so the console's idea of an answer cannot drift from the API's. Type-only: no bytes.
 */
export type Answer<Path extends keyof paths, Method extends 'get' | 'post' | 'put' | 'patch' = 'get', Status extends number = 200> =
  paths[Path][Method] extends { responses: { [S in Status]: { content: { 'application/json': infer Body } } } } ? Body : never;
export interface ErrorDetail {
  field?: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

export type Session = Answer<'/console/api/session'>;

let csrfToken = '';
export const setCsrf = (token: string) => {
  csrfToken = token;
};

/**
 * Paths are relative to the console page (…/console/), so they stay right under a path prefix:
 * `api/session` is the console's own API, `../hosting/api/…` the Hosting API.
 */
export async function call<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  return (await callWithHeaders<T>(method, path, body, extraHeaders)).data;
}

/** `call`, also giving the answer's headers (the Domain API pages its lists with a `Link` header). */
export async function callWithHeaders<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken && method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server cannot be reached. Check your connection and try again.');
  }
  if (res.status === 204) return { data: undefined as T, headers: res.headers };
  const data = (await res.json().catch(() => null)) as { error?: { code: string; message: string; details?: ErrorDetail[] } } | null;
  if (!res.ok) {
    throw new ApiError(res.status, data?.error?.code ?? 'HTTP', data?.error?.message ?? `The server answered ${res.status}.`, data?.error?.details);
  }
  return { data: data as T, headers: res.headers };
}

export const hosting = <T>(method: string, path: string, body?: unknown) => call<T>(method, `../hosting/api${path}`, body);

/**
 * The Domain API (`../api/…`) answers to the client's Domain API key, not to the session: the key is sent as
 * `Authorization: Bearer`, so it stays out of the address and the logs. The console never stores it.
 */
export const domainApi = <T>(path: string, key: string) => call<T>('GET', `../api${path}`, undefined, { authorization: `Bearer ${key}` });

/** One page of a Domain API list, and the cursor of the next page from its `Link: <…cursor=…>; rel="next"` header. */
export async function domainApiPage<T>(path: string, key: string): Promise<{ items: T[]; next: string | null }> {
  const { data, headers } = await callWithHeaders<T[]>('GET', `../api${path}`, undefined, { authorization: `Bearer ${key}` });
  const next = /[?&]cursor=([A-Za-z0-9_-]+)[^>]*>;\s*rel="next"/.exec(headers.get('link') ?? '')?.[1] ?? null;
  return { items: data, next };
}
