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
    '/public/video-preview/:domainId/:host/:kind/:videoId',
    {
      logLevel: 'warn',
      schema: {
        tags: ['widget'],
        summary: "The preview image (JPEG, PNG or WebP) of a blocked YouTube or Vimeo frame, fetched and cached by Placet",
        description:
          'Named by the frame\'s host and path, as the widget finds them in the blocked frame\'s address: ' +
          '`www.youtube.com/embed/<id>`, `www.youtube-nocookie.com/embed/<id>` (also without `www.`) or `player.vimeo.com/video/<id>`.',
        params: Type.Object({
          domainId: PathIdSchema,
          host: Type.String({ minLength: 1, maxLength: 64 }),
          kind: Type.String({ minLength: 1, maxLength: 16, description: '`embed` (YouTube) or `video` (Vimeo)' }),
          videoId: Type.String({ minLength: 1, maxLength: 32, description: 'YouTube: 11 characters [A-Za-z0-9_-]; Vimeo: a number' }),
        }),
        response: errorResponses(400, 404, 429),
      },
    },
    async ({ params, ip }, reply) => {
      const result = await service.preview(params.domainId, params, ip);
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
