/**
 * OpenAPI 3.1 generation with @fastify/swagger from the route schemas (docs/http-api.md#discovery):
 * the document is never hand-written; this file only adds what no single route owns (info, limits,
 * tags, the shared Problem schema's name, per-request servers).
 */
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Config } from '../../config/config.ts';
import { API_VERSION } from '../../version.ts';
import { BODY_LIMIT_BYTES, MAX_ARRAY_ITEMS, MAX_PAGE_SIZE } from './limits.ts';
import { publicBase } from './public-base.ts';

export const OPENAPI_PATH = '/.well-known/openapi.json';

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** The document's info.description: what every route shares (origins, limits, errors). */
export function apiDescription(config: Config): string {
  return [
    'Statistics for competitive tabletop wargames: faction performance, matchups, player ' +
      'rankings, list items, scenarios and upcoming satellite events.',
    '',
    '**Requests.** Every statistics route is a `POST` with a JSON object body ' +
      '(`Content-Type: application/json`; anything else is 415). Unknown fields are a 400. ' +
      'Every response is `{"data": ..., "meta": ...}`.',
    '',
    '**Origins.** `POST` routes accept only requests whose `Origin` is one of the allowed ' +
      'browser origins (403 otherwise); a missing or `null` Origin is refused unless the ' +
      'service is configured to allow it. Preflight `OPTIONS` from an allowed origin is ' +
      'answered with CORS headers. Other methods on these paths are 405 with `Allow: POST`.',
    '',
    `**Limits.** Request body at most ${BODY_LIMIT_BYTES / 1024} KiB (413); arrays in a ` +
      `request at most ${MAX_ARRAY_ITEMS} entries and page sizes at most ${MAX_PAGE_SIZE} (400); ` +
      'at most ' +
      `${config.rateLimitMax} requests per ${seconds(config.rateLimitWindowMs)} per client ` +
      "address across all routes except health and the web client's files (429 with " +
      '`Retry-After`; ' +
      '`RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on every counted ' +
      `response); a request may take at most ${seconds(config.requestTimeoutMs)} (503).`,
    '',
    '**Errors** are RFC 9457 `application/problem+json` with a stable `type` URI; validation ' +
      'problems list each invalid field in `errors[]` as a JSON Pointer into the body.',
    '',
    `**Versioning.** This is API version ${API_VERSION} (also sent as the \`API-Version\` ` +
      'response header); within a major version changes are additive only.',
  ].join('\n');
}

const TAGS = [
  { name: 'statistics', description: 'Aggregated results over the imported games' },
  { name: 'events', description: 'Tournaments and satellite (qualifier) events' },
  { name: 'service', description: 'Status of the service' },
  { name: 'discovery', description: 'Machine-readable descriptions of this API' },
];

interface SchemaWithTags {
  tags?: string[];
  hide?: boolean;
  [key: string]: unknown;
}

/** Registers @fastify/swagger; must be awaited before any route is registered. */
export async function installOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Muster API',
        version: API_VERSION,
        summary: 'Tabletop wargame tournament statistics',
        description: apiDescription(config),
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      tags: TAGS,
    },
    hideUntagged: false,
    // Shared schemas keep their $id as the components/schemas name (e.g. "Problem").
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    transform: ({ schema, url, route }) => {
      const base = (schema ?? {}) as SchemaWithTags;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // Preflights and the docs page's own routes are plumbing, not API.
      if (methods.includes('OPTIONS') || url.startsWith('/docs')) {
        return { schema: { ...base, hide: true }, url };
      }
      if (methods.includes('POST') && (base.tags === undefined || base.tags.length === 0)) {
        return { schema: { ...base, tags: ['statistics'] }, url };
      }
      return { schema: base, url };
    },
  });
}

/** The document's text, built once per start: JSON and YAML, each without `servers`. */
export interface OpenApiTexts {
  /** The document as JSON, `servers` left out (spliced in per request). */
  readonly json: string;
  /** The document as YAML (a block mapping), `servers` left out. */
  readonly yaml: string;
}

const texts = new WeakMap<FastifyInstance, OpenApiTexts>();

/**
 * The generated document as JSON and YAML, built on first use after the app is ready (the
 * routes are fixed then) and kept for the life of the app: the document is large, and building
 * and encoding it for each request cost every request that CPU (docs/http-api.md#discovery).
 */
export function openApiTexts(app: FastifyInstance): OpenApiTexts {
  let built = texts.get(app);
  if (built === undefined) {
    const { servers: _servers, ...document } = app.swagger() as unknown as Record<string, unknown>;
    const yaml = app.swagger({ yaml: true });
    built = {
      json: JSON.stringify(document),
      // @fastify/swagger's YAML of the same document; its own servers (none) are left out.
      yaml: (yaml.endsWith('\n') ? yaml : `${yaml}\n`).replace(/^servers:\n(?: .*\n)*/m, ''),
    };
    texts.set(app, built);
  }
  return built;
}

/**
 * The `servers` member: MUSTER_PUBLIC_URL, or "/", which OpenAPI 3.1 §4.8.5 reads relative to
 * where the document was fetched; never the request's Host (docs/operations.md#public-url).
 */
function serversFor(config: Config): Array<Record<string, string>> {
  const base = publicBase(config);
  return [
    base === ''
      ? { url: '/', description: 'This server (relative to this document)' }
      : { url: base, description: 'Public URL' },
  ];
}

/** The document as JSON with `servers` naming MUSTER_PUBLIC_URL or this server. */
export function documentJson(app: FastifyInstance, config: Config): string {
  const { json } = openApiTexts(app);
  return `${json.slice(0, -1)},"servers":${JSON.stringify(serversFor(config))}}`;
}

/** The document as YAML with `servers` naming MUSTER_PUBLIC_URL or this server. */
export function documentYaml(app: FastifyInstance, config: Config): string {
  // JSON strings are YAML double-quoted scalars (YAML 1.2 §5.7), so no YAML encoder is needed.
  const servers = serversFor(config)
    .map(
      ({ url, description }) =>
        `  - url: ${JSON.stringify(url)}\n    description: ${JSON.stringify(description)}\n`,
    )
    .join('');
  return `${openApiTexts(app).yaml}servers:\n${servers}`;
}
