import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { PathIdSchema, errorResponses } from '../../schemas/common.js';
import { VideoPreviewService } from './video-previews.service.js';

/**
 * Public: the preview image of a blocked YouTube or Vimeo frame (docs/widget.md, "Video previews"). Scoped
 * to a domain that blocks iframes, so it proxies nothing for anyone else. No Origin check: a CSS
 * background image is requested without one, and referrers are often stripped.
 */
export const videoPreviewRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const service = new VideoPreviewService(deps);

  app.get(
    '/public/video-preview/:domainId/:provider/:videoId',
    {
      logLevel: 'warn',
      schema: {
        tags: ['widget'],
        summary: "A blocked video's preview image, fetched and cached by Placet (JPEG, PNG or WebP)",
        params: Type.Object({
          domainId: PathIdSchema,
          provider: Type.Union([Type.Literal('youtube'), Type.Literal('vimeo')]),
          videoId: Type.String({ minLength: 1, maxLength: 32, description: 'YouTube: 11 characters [A-Za-z0-9_-]; Vimeo: a number' }),
        }),
        response: errorResponses(400, 404, 429),
      },
    },
    async ({ params, ip }, reply) => {
      const result = await service.preview(params.domainId, params.provider, params.videoId, ip);
      if ('error' in result) {
        // "No image" is remembered as long as the server remembers it; other refusals are not cached.
        if (result.maxAgeSeconds !== undefined) reply.header('cache-control', `public, max-age=${result.maxAgeSeconds}`);
        if (result.retryAfter !== undefined) reply.header('retry-after', String(result.retryAfter));
        throw result.error;
      }
      return reply
        .headers({
          'content-type': result.contentType,
          'cache-control': `public, max-age=${result.maxAgeSeconds}`,
          // Served to other sites' pages as a background image.
          'cross-origin-resource-policy': 'cross-origin',
        })
        .send(result.body);
    },
  );
};
