import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { canonicalJsonSchema } from '../../src/domain/canonical-json-schema.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { mediaType } from '../support/openapi-contract.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

const published = readFileSync(
  join(import.meta.dirname, '..', '..', 'schema', 'muster-v1.schema.json'),
  'utf8',
);

describe('the published canonical JSON Schema', () => {
  it('is the schema the importer validates with (run npm run schema:write after changing it)', () => {
    assert.equal(published, canonicalJsonSchema());
  });

  it('accepts the fixture and the demo document and refuses an unknown field, under a standard validator', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(published));
    assert.equal(validate(smallDocument()), true, JSON.stringify(validate.errors));
    assert.equal(
      validate(generateDemo({ today: '2026-01-15' })),
      true,
      JSON.stringify(validate.errors?.slice(0, 3)),
    );
    assert.equal(
      validate({
        format: 'muster/v1',
        events: [{ id: 'e', system: 's', name: 'n', start: '2025-01-01', colour: 1 }],
      }),
      false,
    );
  });
});

describe("the canonical JSON Schema's identifier", () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('is a relative reference that resolves, on the server it came from, to the schema itself', async () => {
    const id = (JSON.parse(published) as { $id: string }).$id;
    assert.ok(
      !/^[a-z][a-z0-9+.-]*:/i.test(id),
      `${id} names no host, so every deployment says the same`,
    );
    const resolved = new URL(id, 'http://stats.example.org/api/faction-stats');
    assert.equal(resolved.origin, 'http://stats.example.org');
    const response = await t.app.inject({ method: 'GET', url: resolved.pathname });
    assert.equal(response.statusCode, 200);
    assert.equal(mediaType(response.headers['content-type']), 'application/schema+json');
    assert.equal(response.body, published, 'the served schema is the published file');
  });
});
