/**
 * What an app compiles from its route schemas is kept for the process (docs/operations.md#tests):
 * a schema compiled again gives the same check or serialiser, never one compiled for another
 * part of the request or with other shared schemas.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { buildSerializer } from '../../../src/http/plugins/serializer.ts';
import { cachedValidatorCompiler } from '../../../src/http/plugins/validator-compiler.ts';

type Route = Parameters<typeof cachedValidatorCompiler>[0];
const route = (schema: unknown, httpPart: string) =>
  ({ schema, httpPart, method: 'POST', url: '/x' }) as unknown as Route;

describe('checks and serialisers compiled once per process', () => {
  it('reuses a check for the same schema and part, and converts only where the part does', () => {
    const schema = Type.Object({ n: Type.Integer() });
    const body = cachedValidatorCompiler(route(schema, 'body'));
    assert.equal(cachedValidatorCompiler(route(schema, 'body')), body);
    const query = cachedValidatorCompiler(route(schema, 'querystring'));
    assert.notEqual(query, body);
    // A query string's "5" is converted to 5; a JSON body's "5" is a string, refused.
    assert.deepEqual(query({ n: '5' }), { value: { n: 5 } });
    assert.ok((body({ n: '5' }) as { error?: unknown }).error !== undefined);
    assert.deepEqual(body({ n: 5 }), { value: { n: 5 } });
  });

  it('reuses a serialiser for the same schema, by object or by the text of a small one', () => {
    const shared = {
      Thing: { $id: 'Thing', type: 'object', properties: { a: { type: 'string' } } },
    };
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const first = buildSerializer(shared, {})({ schema });
    assert.equal(buildSerializer(shared, {})({ schema }), first);
    // A $ref made afresh per route, as the problem responses are, is found by its text.
    const ref = buildSerializer(shared, {})({ schema: { $ref: 'Thing#' } });
    assert.equal(buildSerializer(shared, {})({ schema: { $ref: 'Thing#' } }), ref);
    assert.equal(ref({ a: 'x', b: 1 }), '{"a":"x"}');
  });

  it('compiles again where the shared schemas differ', () => {
    const one = { Thing: { $id: 'Thing', type: 'object', properties: { a: { type: 'string' } } } };
    const two = { Thing: { $id: 'Thing', type: 'object', properties: { b: { type: 'integer' } } } };
    const viaOne = buildSerializer(one, {})({ schema: { $ref: 'Thing#' } });
    const viaTwo = buildSerializer(two, {})({ schema: { $ref: 'Thing#' } });
    assert.notEqual(viaOne, viaTwo);
    assert.equal(viaOne({ a: 'x', b: 2 }), '{"a":"x"}');
    assert.equal(viaTwo({ a: 'x', b: 2 }), '{"b":2}');
  });
});
