/**
 * Problem type pages (docs/problems.md; RFC 9457 §3.1.1): every `type` in the catalogue,
 * resolved against the URL of the request that produced it, is an HTML page this server serves.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROBLEM_TYPES, ProblemError } from '../../src/errors/problem.ts';
import type { ProblemKind } from '../../src/errors/problem.ts';
import { escapeHtml } from '../../src/http/routes/problem-pages.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { mediaType } from '../support/openapi-contract.ts';

const KINDS = Object.keys(PROBLEM_TYPES) as ProblemKind[];
const BASE = 'http://localhost:8080';

describe('problem type pages', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  /** GETs a problem `type` resolved against the URL of the request that answered it. */
  async function dereference(type: string, requestUrl: string) {
    const resolved = new URL(type, requestUrl);
    assert.equal(resolved.origin, new URL(requestUrl).origin, `${type} stays on this server`);
    return t.app.inject({ method: 'GET', url: resolved.pathname });
  }

  for (const kind of KINDS) {
    it(`resolves the ${kind} problem type to an HTML page naming its title`, async () => {
      const type = new ProblemError(kind, 'test').toProblem('/api/faction-stats').type;
      assert.ok(!/^[a-z][a-z0-9+.-]*:/i.test(type), `${type} is the same on every server`);
      const response = await dereference(type, `${BASE}/api/faction-stats`);
      assert.equal(response.statusCode, 200);
      assert.equal(mediaType(response.headers['content-type']), 'text/html');
      const spec = PROBLEM_TYPES[kind];
      assert.match(response.body, new RegExp(`<h1>${escapeHtml(spec.title)}</h1>`));
      assert.ok(response.body.includes(escapeHtml(spec.description)), 'explains the type');
      assert.ok(response.body.includes(`<strong>${spec.status}</strong>`), 'names the status');
    });
  }

  it('resolves the type of a problem the running app sent to its page', async () => {
    const answered = await t.app.inject({
      method: 'POST',
      url: '/api/faction-stats',
      headers: { origin: TEST_ORIGIN },
      payload: { minGames: -1 },
    });
    assert.equal(answered.statusCode, 400);
    const problem = answered.json() as { type: string; title: string };
    const page = await dereference(problem.type, `${BASE}/api/faction-stats`);
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`<h1>${escapeHtml(problem.title)}</h1>`));
  });

  it('lists every problem type on the index page, each linking to its page', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/problems' });
    assert.equal(response.statusCode, 200);
    assert.equal(mediaType(response.headers['content-type']), 'text/html');
    for (const kind of KINDS) {
      assert.ok(response.body.includes(`href="/problems/${kind}"`), `links ${kind}`);
    }
  });

  it('serves pages with no external assets and no scripts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/problems/validation' });
    assert.doesNotMatch(response.body, /<script|\ssrc=|https?:\/\//i);
    for (const [, href] of response.body.matchAll(/href="([^"]*)"/g)) {
      assert.ok(href.startsWith('/'), `${href} is on this server`);
    }
    assert.match(String(response.headers['content-security-policy']), /default-src 'none'/);
  });

  it('serves the pages to a request from any origin', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/problems/origin-not-allowed',
      headers: { origin: 'https://elsewhere.example' },
    });
    assert.equal(response.statusCode, 200);
  });

  it('answers an unknown problem type with a 404 problem', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/problems/no-such-thing' });
    assert.equal(response.statusCode, 404);
    assert.equal(mediaType(response.headers['content-type']), 'application/problem+json');
    assert.equal((response.json() as { type: string }).type, '/problems/not-found');
  });

  it('describes the problem type pages in the OpenAPI Problem schema', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    const document = response.json() as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const type = document.components.schemas.Problem.properties.type as {
      description: string;
      enum: string[];
    };
    assert.match(type.description, /\/problems/);
    assert.deepEqual(
      type.enum,
      KINDS.map((kind) => `/problems/${kind}`),
    );
  });
});
