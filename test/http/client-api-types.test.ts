/**
 * The dashboard's API types are generated from the served contract (docs/http-api.md#discovery):
 * the committed web/src/generated/api-types.ts is what openapi-typescript makes of the document
 * at /.well-known/openapi.json, so a route change shows up in the client's type check.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { CLIENT_API_TYPES, clientApiTypes } from '../../scripts/client-api-types.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

describe(`the dashboard's API types (${TEST_BACKEND})`, () => {
  let test: TestApp;
  before(async () => {
    test = await buildTestApp();
  });
  after(() => test.close());

  it('match the served OpenAPI document (stale: run npm run api:types)', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    assert.equal(response.statusCode, 200);
    const generated = await clientApiTypes(response.body);
    const committed = readFileSync(CLIENT_API_TYPES, 'utf8');
    assert.ok(
      committed === generated,
      'web/src/generated/api-types.ts differs from the served contract: run npm run api:types',
    );
    assert.match(committed, /"\/api\/rankings": \{/);
  });
});
