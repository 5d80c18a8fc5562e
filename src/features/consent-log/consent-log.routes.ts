import { Readable, pipeline } from 'node:stream';
import { constants as zlibConstants, createGzip } from 'node:zlib';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { HOSTING_SECURITY, errorResponses } from '../../schemas/common.js';
import { startRetentionJob } from './consent-log.retention.js';
import { AppError } from '../../errors.js';
import { checkpointSigner } from './consent-log.checkpoint.js';
import { startCheckpointJob } from './consent-log.checkpoints.js';
import {
  BlockParams,
  BlockSchema,
  DomainParams,
  Preserialized,
  QuarantineBody,
  QuarantineParams,
  QuarantineSchema,
  VerifyQuery,
  VerifyResultSchema,
} from './consent-log.schemas.js';
import { liftQuarantine, listQuarantine, quarantine } from './consent-log.quarantine.js';
import * as service from './consent-log.service.js';

const tags = ['consent-log'];
const security = HOSTING_SECURITY;
const prefix = '/client/:clientId/domain/:domainId/consent-log';

/** Hosting API for a domain's consent log: blocks, archive, export, verify. Also owns the retention job. */
export const consentLogRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  checkpointSigner(deps.config); // a missing or broken signing key stops the start, not the first checkpoint
  const retention = startRetentionJob(deps);
  const checkpoints = startCheckpointJob(deps);
  app.addHook('onClose', async () => {
    await retention.stop();
    await checkpoints.stop();
  });

  app.post(
    `${prefix}/archive`,
    {
      schema: {
        tags, security, summary: 'Archive the current block: its records leave the Domain API but are kept',
        params: DomainParams,
        querystring: Type.Object({
          resetStatistics: Type.Optional(Type.Boolean({ description: "true also deletes the domain's consent statistics (reference model: optional on archive)" })),
        }),
        response: { 201: BlockSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async ({ params: p, query }, reply) =>
      reply.status(201).send(await service.archiveCurrentBlock(deps, p.clientId, p.domainId, query.resetStatistics === true)),
  );

  // Setting a flood aside (consent-log.quarantine.ts): ranges kept beside the chain, never in it.
  app.post(
    `${prefix}/quarantine`,
    {
      schema: {
        tags, security,
        summary: 'Set a range of the chain aside (forged records): the Domain API leaves it out, the chain and exports keep it',
        params: DomainParams,
        body: QuarantineBody,
        response: { 201: QuarantineSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async ({ params: p, body }, reply) => reply.status(201).send(await quarantine(deps, p.clientId, p.domainId, body)),
  );

  app.get(
    `${prefix}/quarantine`,
    {
      schema: {
        tags, security, summary: "The domain's quarantined ranges, in chain order",
        params: DomainParams,
        response: { 200: Type.Array(QuarantineSchema), ...errorResponses(401, 404) },
      },
    },
    async ({ params: p }) => listQuarantine(deps, p.clientId, p.domainId),
  );

  app.delete(
    `${prefix}/quarantine/:quarantineId`,
    {
      schema: {
        tags, security, summary: 'Lift a quarantined range: its records are in the Domain API again',
        params: QuarantineParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async ({ params: p }, reply) => {
      await liftQuarantine(deps, p.clientId, p.domainId, p.quarantineId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    `${prefix}/blocks`,
    {
      schema: {
        tags, security, summary: 'List the blocks of the log, oldest first; the last is the open block',
        params: DomainParams,
        response: { 200: Type.Array(BlockSchema), ...errorResponses(401, 404) },
      },
    },
    async ({ params: p }) => service.listBlocks(deps, p.clientId, p.domainId),
  );

  app.get(
    `${prefix}/blocks/:blockId/export`,
    {
      schema: {
        tags, security,
        summary: 'Stream a block as NDJSON (gzip when accepted), one line per record with its hashes',
        params: BlockParams,
        produces: ['application/x-ndjson'],
        response: { 200: Preserialized(Type.String({ description: 'NDJSON, one record per line' })), ...errorResponses(401, 404, 410) },
      },
    },
    async ({ params: p, headers }, reply) => {
      const { block, lines } = await service.exportBlock(deps, p.clientId, p.domainId, p.blockId);
      const source = Readable.from(lines);
      reply
        .type('application/x-ndjson; charset=utf-8')
        .header('vary', 'Accept-Encoding')
        .header('content-disposition', `attachment; filename="consent-log-${p.domainId}-block-${block.id}.ndjson"`);
      if (!acceptsGzip(headers['accept-encoding'])) return reply.send(source);
      // Fastest level: hashes and ucids are random hex that no level compresses much further, and level 6
      // took about three times as long for a 100,000-record block (bench/consent.ts).
      const gzip = createGzip({ level: zlibConstants.Z_BEST_SPEED });
      pipeline(source, gzip, (err) => {
        if (err) reply.log.error({ err }, 'consent log export failed');
      });
      return reply.header('content-encoding', 'gzip').send(gzip);
    },
  );

  app.get(
    `${prefix}/verify`,
    {
      schema: {
        tags, security,
        summary: 'Recompute the hash chain, snapshots and signed checkpoints (and a kept checkpoint) and report the first mismatch',
        params: DomainParams,
        querystring: VerifyQuery,
        response: { 200: VerifyResultSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async ({ params: p, query: q }) => {
      if ((q.seq === undefined) !== (q.headHash === undefined) || (q.signature === undefined) !== (q.signedAt === undefined) || (q.signature !== undefined && q.seq === undefined)) {
        throw new AppError('VALIDATION_FAILED', [{ field: 'query', message: 'a kept checkpoint needs seq and headHash (and signedAt with signature)' }]);
      }
      const kept = q.seq !== undefined && q.headHash !== undefined ? { seq: q.seq, headHash: q.headHash, signedAt: q.signedAt, signature: q.signature } : undefined;
      return service.verifyLog(deps, p.clientId, p.domainId, kept);
    },
  );
};

/** `gzip` listed with a non-zero quality (RFC 9110 §12.5.3). */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip') return false;
    const q = params.map((s) => s.trim()).find((s) => s.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
