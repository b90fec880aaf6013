/**
 * GET and HEAD /.well-known/api-catalog: the RFC 9727 API catalog, an RFC 9264 JSON linkset
 * whose one link context is this API, pointing at its description, docs page and status.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { OPENAPI_PATH } from '../plugins/openapi.ts';
import { publicBase } from '../plugins/public-base.ts';
import { HEALTH_CONTENT_TYPE } from './health.ts';

export const API_CATALOG_PATH = '/.well-known/api-catalog';
/** RFC 9727 §4.1: the linkset media type with the api-catalog profile. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const LINKSET_MEDIA_TYPE = 'application/linkset+json';
export const API_CATALOG_CONTENT_TYPE = `${LINKSET_MEDIA_TYPE}; profile="${API_CATALOG_PROFILE}"`;
export const DOCS_PATH = '/docs';
export const HEALTH_PATH = '/api/health';

const Target = {
  type: 'object',
  required: ['href', 'type'],
  properties: {
    href: {
      type: 'string',
      format: 'uri-reference',
      description: 'The target: absolute under MUSTER_PUBLIC_URL, else a path on this server',
    },
    type: { type: 'string', description: 'Media type of the target' },
  },
} as const;

const Targets = (description: string) => ({ type: 'array', description, items: Target });

const Linkset = {
  description: 'RFC 9264 linkset with one link context: this API',
  type: 'object',
  required: ['linkset'],
  properties: {
    linkset: {
      type: 'array',
      description: 'The link contexts: one, anchored at the API base',
      items: {
        type: 'object',
        required: ['anchor', 'service-desc', 'service-doc', 'status'],
        properties: {
          anchor: {
            type: 'string',
            format: 'uri-reference',
            description: 'The API base: MUSTER_PUBLIC_URL, else "/" (this server)',
          },
          'service-desc': Targets('Machine-readable description (RFC 8631): the OpenAPI document'),
          'service-doc': Targets('Human-readable documentation (RFC 8631): the docs page'),
          status: Targets('Status of the API (RFC 8631): the health route'),
        },
      },
    },
  },
} as const;

/** Registers GET (and Fastify's automatic HEAD) /.well-known/api-catalog. */
export function registerApiCatalogRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    API_CATALOG_PATH,
    {
      schema: {
        summary: 'API catalog (RFC 9727)',
        description:
          'Where to find this API, its OpenAPI description, its documentation and its status, ' +
          `as an RFC 9264 linkset (\`${API_CATALOG_CONTENT_TYPE}\`). Also answers HEAD, with ` +
          'the same headers and no body.',
        tags: ['discovery'],
        produces: [LINKSET_MEDIA_TYPE],
        response: { 200: Linkset },
      },
    },
    async (_request, reply) => {
      // Relative references (RFC 9264 §4.2.2) unless MUSTER_PUBLIC_URL is set: never the Host.
      const base = publicBase(ctx.config);
      return reply
        .type(API_CATALOG_CONTENT_TYPE)
        .header('link', `<${API_CATALOG_PATH}>; rel="api-catalog"`)
        .send({
          linkset: [
            {
              anchor: base === '' ? '/' : base,
              'service-desc': [{ href: base + OPENAPI_PATH, type: 'application/openapi+json' }],
              'service-doc': [{ href: base + DOCS_PATH, type: 'text/html' }],
              status: [{ href: base + HEALTH_PATH, type: HEALTH_CONTENT_TYPE }],
            },
          ],
        });
    },
  );
}
