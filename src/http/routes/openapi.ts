/**
 * GET /.well-known/openapi.json: the OpenAPI 3.1 document generated from the route schemas
 * (docs/http-api.md#discovery), with `servers` set to MUSTER_PUBLIC_URL or "/" (relative).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { OPENAPI_PATH, documentJson } from '../plugins/openapi.ts';

/** The registered-but-unofficial OpenAPI media type, sent when a client asks for it. */
export const OPENAPI_MEDIA_TYPE = 'application/openapi+json';

/** Registers GET /.well-known/openapi.json. */
export function registerOpenApiRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    OPENAPI_PATH,
    {
      schema: {
        summary: 'OpenAPI description of this API',
        description:
          'The OpenAPI 3.1 document for every route, generated from the schemas the service ' +
          `validates with. Sent as \`application/json\`, or as \`${OPENAPI_MEDIA_TYPE}\` when ` +
          'the Accept header asks for it.',
        tags: ['discovery'],
        produces: ['application/json', OPENAPI_MEDIA_TYPE],
        response: {
          200: {
            description: 'An OpenAPI 3.1 document',
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: {
              openapi: { type: 'string', description: 'OpenAPI version, 3.1.x' },
              info: {
                type: 'object',
                description: 'Title and API version',
                additionalProperties: true,
              },
            },
            additionalProperties: true,
          },
        },
      },
    },
    async (request, reply) => {
      const accept = request.headers.accept ?? '';
      const type = accept.toLowerCase().includes(OPENAPI_MEDIA_TYPE)
        ? OPENAPI_MEDIA_TYPE
        : 'application/json';
      return reply
        .type(`${type}; charset=utf-8`)
        .header('vary', 'Accept')
        .send(documentJson(app, ctx.config));
    },
  );
}
