import { createHash } from 'node:crypto';
import { compressed, pickEncoding, sendScriptChunk } from '../widget/script-chunk.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { HOSTING_SECURITY, LocaleNameSchema, PathIdSchema, errorResponses } from '../../schemas/common.js';
import { tcfChunkCode } from './tcf.code.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import { listEmbeddingRows } from '../embeddings/embeddings.repository.js';
import { withAssets } from '../embeddings/embeddings.service.js';
import { gvlStoreFor } from './tcf.gvl.js';
import { findDomainRowById } from './tcf.repository.js';
import { domainGvl } from './tcf.service.js';

/** Public: the TCF chunk and each TCF domain's Global Vendor List (browsers never fetch it from the IAB). */
export const tcfRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const store = gvlStoreFor(deps);
  await store.start();
  const listCache = new Map<string, { identity: Buffer; br: Buffer; gzip: Buffer; etag: string }>();
  app.addHook('onClose', async () => store.stop());
  const chunk = compressed(await tcfChunkCode());

  // The chunk is inlined in app.js now (tcfSuffix); this route stays for scripts served before that, which
  // browsers and proxies may still hold for a while and which load it by URL.
  app.get(
    '/public/tcf.js',
    { logLevel: 'warn', schema: { tags: ['widget'], summary: 'The TCF chunk of the widget (tcfEnabled domains load it)' } },
    async (request, reply) => sendScriptChunk(reply, request.headers['accept-encoding'], chunk),
  );

  app.get(
    '/public/tcf/:domainId/vendor-list.json',
    {
      logLevel: 'warn',
      schema: {
        tags: ['widget'],
        summary: "The domain's Global Vendor List: the offered vendors only, purposes in `lang` when translated",
        params: Type.Object({ domainId: PathIdSchema }),
        querystring: Type.Object({ lang: Type.Optional(LocaleNameSchema) }),
        response: errorResponses(400, 404),
      },
    },
    async ({ params, query, headers }, reply) => {
      const row = await findDomainRowById(deps.db, params.domainId);
      if (!row || !store.current) throw new AppError('TCF_NOT_AVAILABLE');
      // Every page view of a TCF domain asks for this: built and compressed once per domain revision, GVL
      // version and language (only a language with a stored translation gets a variant of its own).
      const language = query.lang?.slice(0, 2).toLowerCase() ?? 'en';
      const key = `${row.id}:${row.config_revision}:${store.current.vendorListVersion}:${store.translation(language) ? language : 'en'}`;
      let entry = listCache.get(key);
      if (!entry) {
        const embeddings = await withAssets(deps.db, (await listEmbeddingRows(deps.db, row.id)).filter((e) => e.active === 1));
        const body = Buffer.from(JSON.stringify(await domainGvl(deps, domainRowToDomain(row), embeddings, query.lang)));
        entry = {
          ...compressed(body, 9),
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
        };
        if (listCache.size >= 500) listCache.delete(listCache.keys().next().value!);
        listCache.set(key, entry);
      }
      const encoding = pickEncoding(headers['accept-encoding']);
      reply.headers({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-cache',
        etag: encoding === 'identity' ? entry.etag : entry.etag.replace(/"$/, `-${encoding}"`),
        vary: 'Accept-Encoding',
        'access-control-allow-origin': '*',
      });
      if (headers['if-none-match'] === reply.getHeader('etag')) return reply.status(304).send();
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(entry[encoding]);
    },
  );
};


const GvlStatus = Type.Object({
  vendorListVersion: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no list fetched yet' }),
  tcfPolicyVersion: Type.Union([Type.Integer(), Type.Null()]),
  lastUpdated: Type.Union([Type.String(), Type.Null()]),
  vendorCount: Type.Integer(),
  languages: Type.Array(Type.String(), { description: 'languages of the stored purpose translations' }),
  url: Type.String({ description: 'TCF_GVL_URL' }),
  cmpId: Type.Union([Type.Integer(), Type.Null()], { description: 'TCF_CMP_ID; null: TCF is off on this instance' }),
});

/** Hosting API: the instance's GVL and a refresh on demand (the schedule is TCF_GVL_REFRESH_HOURS). */
export const tcfHostingRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const status = () => {
    const store = gvlStoreFor(deps);
    const gvl = store.current;
    return {
      vendorListVersion: gvl?.vendorListVersion ?? null,
      tcfPolicyVersion: gvl?.tcfPolicyVersion ?? null,
      lastUpdated: gvl?.lastUpdated ?? null,
      vendorCount: gvl ? Object.keys(gvl.vendors).length : 0,
      languages: store.languages(),
      url: deps.config.tcf.gvlUrl,
      cmpId: deps.config.tcf.cmpId ?? null,
    };
  };
  app.get(
    '/tcf/gvl',
    {
      schema: {
        tags: ['tcf'], security: HOSTING_SECURITY, summary: 'The Global Vendor List this instance serves',
        response: { 200: GvlStatus, ...errorResponses(401) },
      },
    },
    async () => status(),
  );
  app.post(
    '/tcf/gvl/refresh',
    {
      schema: {
        tags: ['tcf'], security: HOSTING_SECURITY, summary: 'Fetch the Global Vendor List from TCF_GVL_URL now',
        response: { 200: GvlStatus, ...errorResponses(401, 502) },
      },
    },
    async () => {
      try {
        await gvlStoreFor(deps).refresh();
      } catch (err) {
        throw new AppError('TCF_GVL_FETCH_FAILED', [{ message: String(err) }]);
      }
      return status();
    },
  );
};
