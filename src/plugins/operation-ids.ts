import type { RouteOptions } from 'fastify';

/**
 * A stable `operationId` for every route that does not name its own: the method followed by the path's
 * segments in camel case, each parameter as `By<Name>` (the Hosting API without its `/hosting/api` prefix, the
 * Domain API with `DomainApi` for `/api`). It changes only when the method or the path does, so
 * generated clients keep their function names across releases (`GET /hosting/api/client/:clientId` →
 * `getClientByClientId`, `GET /api/domains` → `getDomainApiDomains`). Registered as an onRoute hook before the feature routes.
 */
export function assignOperationId(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as { operationId?: string; hide?: boolean; summary?: string; security?: unknown };
  if (schema.hide === true) return;
  const method = (Array.isArray(route.method) ? route.method[0] : route.method) ?? 'GET';
  if (method === 'HEAD') return;
  route.schema = {
    ...(schema as RouteOptions['schema']),
    operationId: schema.operationId ?? operationIdOf(method, route.url),
    summary: schema.summary ?? summaryOf(method, route.url),
    // A route that declares no security is public (the widget, consent, health): say so instead of leaving it open to reading.
    security: (schema.security ?? []) as Array<Record<string, string[]>>,
  } as RouteOptions['schema'];
}

const VERBS: Record<string, [item: string, collection: string]> = {
  GET: ['Read one', 'List'],
  POST: ['Create', 'Create'],
  PUT: ['Update one', 'Replace'],
  DELETE: ['Delete one', 'Delete'],
};

/** A plain summary for routes that give none: `GET …/asset/{assetId}` → `Read one asset`. */
export function summaryOf(method: string, url: string): string {
  const segments = url.split('/').filter((s) => s !== '');
  const item = segments.at(-1)?.startsWith(':') === true;
  const resource = segments.filter((s) => !s.startsWith(':')).at(-1) ?? '/';
  const [one, many] = VERBS[method] ?? [method, method];
  return `${item ? one : many} ${resource}${item || method === 'POST' ? '' : 's'}`;
}

export function operationIdOf(method: string, url: string): string {
  // The Hosting API is the main surface: its prefix is left out; the Domain API keeps a prefix of its own.
  const path = url.replace(/^\/hosting\/api(?=\/|$)/, '').replace(/^\/api(?=\/|$)/, '/domain-api');
  const words = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment.startsWith(':') ? `By${pascal(segment.slice(1))}` : pascal(segment)));
  return method.toLowerCase() + words.join('');
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
