import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { auditDomain } from './audit.service.js';
import {
  AuditResultSchema,
  CookieEmbeddingsSchema,
  CookieListBody,
  PresetImportBody,
  PresetResultSchema,
  ScanResultSchema,
} from './onboarding.schemas.js';
import * as service from './onboarding.service.js';
import { scanDomain } from './scan.service.js';
import { Scanner } from './scanner.js';

const tags = ['onboarding'];
const security = HOSTING_SECURITY;
const params = Type.Object({ clientId: PathIdSchema, domainId: PathIdSchema });
const prefix = '/client/:clientId/domain/:domainId/onboarding';

export const onboardingRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // One scanner (and at most one Chromium) per app; it starts nothing until the first scan.
  const scanner = new Scanner({ ...deps.config.scan, log: deps.log });
  app.addHook('onClose', async () => scanner.close());

  app.get(
    `${prefix}/scan`,
    {
      schema: {
        tags, security, params,
        summary: 'Scan the domain\'s website for cookies, storage, scripts, legal pages and known services',
        description:
          'Crawls up to SCAN_MAX_PAGES same-site pages within SCAN_TIMEOUT_MS in headless Chromium (HTTP-only without ' +
          'a browser). 400 SCAN_SITE_ERROR: the site answered with an error status or empty content; 400 ' +
          'SCAN_TARGET_FORBIDDEN: the site is on a private network; 500 SCAN_FAILED: crawling failed (the detail ' +
          'starts with DNS, CONNECTION_REFUSED, CONNECTION_FAILED, TLS, TIMEOUT, BROWSER_CRASHED or BUSY). A site with ' +
          'Placet\'s snippet is seen without the widget (a server-signed scan pass; docs/onboarding.md).',
        response: { 200: ScanResultSchema, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async ({ params: p }) => scanDomain(deps, scanner, p.clientId, p.domainId),
  );

  app.get(
    `${prefix}/audit`,
    {
      schema: {
        tags, security, params,
        summary: 'Enforcement audit: what the site loads and writes before consent, after "decline" and after "accept all", with the widget as visitors meet it',
        description:
          'Visits up to SCAN_MAX_PAGES same-site pages in headless Chromium within SCAN_TIMEOUT_MS, as three visitors: one ' +
          'who never decides, one who declines and one who accepts all (clicking the widget\'s buttons). Lists per page ' +
          'every third-party request and every cookie and storage key written, and as violations what loaded or was ' +
          'written before consent or after "decline", matched to an embedding or preset, with the fix. Same SSRF guard, ' +
          'limits and errors as the scan; without Chromium 500 SCAN_FAILED NO_BROWSER.',
        response: { 200: AuditResultSchema, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async ({ params: p }) => auditDomain(deps, scanner, p.clientId, p.domainId),
  );

  app.post(
    `${prefix}/presets`,
    {
      schema: {
        tags, security, params,
        summary: 'Create an embedding per catalogue preset (inactive unless active: true); a preset imported before returns its embedding',
        body: PresetImportBody,
        response: { 201: PresetResultSchema, ...errorResponses(400, 401, 404, 413) },
      },
    },
    async ({ params: p, body }, reply) =>
      reply.status(201).send(await service.importPresets(deps, p.clientId, p.domainId, body)),
  );

  app.post(
    `${prefix}/embeddingsFromCookies`,
    {
      schema: {
        tags, security, params,
        summary: 'Create embeddings for cookie and storage names: known ones from presets, the rest as one embedding of unrecognised items',
        body: CookieListBody,
        response: { 201: CookieEmbeddingsSchema, ...errorResponses(400, 401, 404, 413) },
      },
    },
    async ({ params: p, body }, reply) =>
      reply.status(201).send(await service.embeddingsFromCookies(deps, p.clientId, p.domainId, body)),
  );
};
