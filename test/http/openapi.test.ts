/**
 * GET /.well-known/openapi.json (docs/http-api.md#discovery): a valid OpenAPI 3.1 document
 * generated from the route schemas, with the API version, servers, tags, limits and only the
 * public routes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_VERSION } from '../../src/version.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { OpenApiContract, mediaType } from '../support/openapi-contract.ts';
import type { OpenApiDocument } from '../support/openapi-contract.ts';

type SchemaNode = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

function isSchema(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasDescription(schema: SchemaNode): boolean {
  return typeof schema.description === 'string' && schema.description.trim() !== '';
}

/**
 * The JSON Pointers of every property under `schema` (through objects, records, arrays and
 * unions, following component $refs once) whose schema has no non-empty description.
 */
function undocumentedProperties(
  document: OpenApiDocument,
  schema: unknown,
  pointer: string,
  out: string[] = [],
  seen = new Set<string>(),
): string[] {
  if (!isSchema(schema)) return out;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    assert.ok(ref.startsWith(COMPONENT_REF), `${pointer}: unexpected $ref ${ref}`);
    if (seen.has(ref)) return out;
    seen.add(ref);
    const target = document.components?.schemas?.[ref.slice(COMPONENT_REF.length)];
    assert.ok(target, `${pointer}: unresolved $ref ${ref}`);
    undocumentedProperties(document, target, ref.slice(1), out, seen);
  }
  for (const [name, property] of Object.entries(
    isSchema(schema.properties) ? schema.properties : {},
  )) {
    const at = `${pointer}/properties/${name}`;
    if (!isSchema(property)) continue;
    const target =
      typeof property.$ref === 'string'
        ? document.components?.schemas?.[property.$ref.slice(COMPONENT_REF.length)]
        : undefined;
    if (!hasDescription(property) && !(isSchema(target) && hasDescription(target))) out.push(at);
    undocumentedProperties(document, property, at, out, seen);
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    undocumentedProperties(document, schema[key], `${pointer}/${key}`, out, seen);
  }
  for (const key of ['prefixItems', 'anyOf', 'oneOf', 'allOf'] as const) {
    const members = schema[key];
    if (Array.isArray(members)) {
      members.forEach((member, i) =>
        undocumentedProperties(document, member, `${pointer}/${key}/${i}`, out, seen),
      );
    }
  }
  if (isSchema(schema.patternProperties)) {
    for (const [pattern, member] of Object.entries(schema.patternProperties)) {
      undocumentedProperties(
        document,
        member,
        `${pointer}/patternProperties/${pattern}`,
        out,
        seen,
      );
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenApiDocument;

  before(async () => {
    t = await buildTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    assert.equal(response.statusCode, 200);
    assert.equal(mediaType(response.headers['content-type']), 'application/json');
    document = response.json() as OpenApiDocument;
  });
  after(() => t.close());

  it('passes an OpenAPI 3.1 validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(document) as unknown as Record<string, unknown>,
    );
    assert.equal(validator.version, '3.1');
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
  });

  it('declares openapi 3.1.0 and the API version, matching the API-Version header', async () => {
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.info.version, API_VERSION);
    assert.match(API_VERSION, /^\d+\.\d+\.\d+$/);
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(response.headers['api-version'], document.info.version);
  });

  it('documents the limits and the origin rule in info.description', () => {
    const description = document.info.description ?? '';
    assert.match(description, /16 KiB/);
    assert.match(description, /100 entries/);
    assert.match(description, /200/);
    assert.match(description, new RegExp(`${t.config.rateLimitMax} requests per 60 s`));
    assert.match(description, /Origin/);
  });

  it('names "/" in servers, never the Host header, when no public URL is configured', async () => {
    for (const host of ['evil.example', 'stats.local:9000', 'evil.test/"><script>']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/.well-known/openapi.json',
        headers: { host },
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(
        (response.json() as OpenApiDocument).servers?.map((s) => s.url),
        ['/'],
      );
      assert.doesNotMatch(response.body, /evil|stats\.local/);
    }
  });

  it('uses MUSTER_PUBLIC_URL for servers when configured', async () => {
    const other = await buildTestApp({
      env: { MUSTER_PUBLIC_URL: 'https://stats.example.org/muster/' },
    });
    try {
      const response = await other.app.inject({
        method: 'GET',
        url: '/.well-known/openapi.json',
        headers: { host: 'internal:8080' },
      });
      assert.deepEqual(
        (response.json() as OpenApiDocument).servers?.map((s) => s.url),
        ['https://stats.example.org/muster'],
      );
    } finally {
      await other.close();
    }
  });

  it('sends application/openapi+json when asked for it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/.well-known/openapi.json',
      headers: { accept: 'application/openapi+json' },
    });
    assert.equal(mediaType(response.headers['content-type']), 'application/openapi+json');
  });

  it('lists health, the discovery documents and the POST routes, each tagged and summarised', () => {
    assert.ok(document.paths['/api/health']?.get);
    assert.ok(document.paths['/.well-known/openapi.json']?.get);
    assert.ok(document.paths['/.well-known/api-catalog']?.get);
    const posts = Object.keys(document.paths).filter((p) => document.paths[p].post);
    assert.ok(posts.length > 0, 'no POST route documented');
    const tags = new Set(document.tags?.map((tag) => tag.name));
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        assert.ok(op.summary, `${method} ${path}: summary`);
        assert.ok(op.tags?.length, `${method} ${path}: tags`);
        for (const tag of op.tags ?? []) assert.ok(tags.has(tag), `${method} ${path}: tag ${tag}`);
      }
    }
  });

  it('hides internal routes: docs assets, preflights, 405 companions and HEAD', () => {
    for (const path of Object.keys(document.paths)) {
      assert.ok(!path.startsWith('/docs'), path);
      for (const method of Object.keys(document.paths[path])) {
        assert.ok(['get', 'post'].includes(method), `${method} ${path}`);
      }
      if (document.paths[path].post) assert.equal(document.paths[path].get, undefined, path);
    }
  });

  it('names the shared Problem schema and uses it for every problem response', () => {
    assert.ok(document.components?.schemas?.Problem);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const problem = response.content?.['application/problem+json'];
          if (Number(status) >= 400 && path !== '/api/health') {
            assert.ok(problem, `${method} ${path} ${status}`);
            assert.deepEqual(problem.schema, { $ref: '#/components/schemas/Problem' });
          }
        }
        assert.ok(op.responses['500'], `${method} ${path}: 500`);
      }
    }
  });

  it('describes every property of every request body and every 200 response', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const media = [
          ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => ({
            where: `${method.toUpperCase()} ${path} request ${type}`,
            schema: m.schema,
          })),
          ...Object.entries(op.responses['200']?.content ?? {}).map(([type, m]) => ({
            where: `${method.toUpperCase()} ${path} 200 ${type}`,
            schema: m.schema,
          })),
        ];
        for (const { where, schema } of media) {
          checked++;
          for (const pointer of undocumentedProperties(document, schema, '')) {
            missing.push(`${where}: ${pointer}`);
          }
        }
      }
    }
    assert.ok(checked >= 16, `only ${checked} schemas walked`);
    assert.equal(missing.length, 0, `properties without a description:\n${missing.join('\n')}`);
  });

  it('finds an undescribed property nested in an array of unions', () => {
    const schema = {
      type: 'object',
      properties: {
        rows: {
          type: 'array',
          description: 'Rows',
          items: {
            anyOf: [{ type: 'object', properties: { x: { type: 'number' } } }, { type: 'null' }],
          },
        },
      },
    };
    assert.deepEqual(undocumentedProperties(document, schema, ''), [
      '/properties/rows/items/anyOf/0/properties/x',
    ]);
  });

  it('gives every POST route a request example that its own schema accepts', () => {
    const contract = new OpenApiContract(document);
    const posts = contract.operations('post');
    assert.ok(posts.length >= 7, `only ${posts.length} POST routes`);
    for (const path of posts) {
      const example = contract.requestExample(path);
      assert.ok(
        typeof example === 'object' && example !== null && Object.keys(example).length > 0,
        `POST ${path}: no request example`,
      );
      assert.deepEqual(contract.requestErrors(path, example), [], `POST ${path}: example invalid`);
    }
  });

  it('documents health as application/health+json', () => {
    const content = document.paths['/api/health'].get.responses['200'].content ?? {};
    assert.deepEqual(Object.keys(content), ['application/health+json']);
  });
});
