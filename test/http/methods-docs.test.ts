/**
 * The methods pages Muster serves (GET /docs/statistics, /docs/ratings): rendered from docs/,
 * each heading with its anchor, and every definition of the dashboard (web/src/definitions.ts)
 * pointing at an anchor that exists, so a tap on "How it is computed" lands on its section.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { localHref, slug } from '../../src/http/routes/methods-docs.ts';
import { DEFINITIONS } from '../../web/src/definitions.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const ids = (html: string): Set<string> =>
  new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));

describe(`the methods pages (${TEST_BACKEND})`, () => {
  let test: TestApp;
  before(async () => {
    test = await buildTestApp();
  });
  after(async () => test?.close());

  it('serves both pages as HTML with an anchor per section and a strict CSP', async () => {
    for (const [page, anchors] of [
      ['statistics', ['win-rate', 'compareto', 'difference-of-win-rates', 'min-games']],
      ['ratings', ['glicko-2', 'elo', 'a-players-page']],
    ] as const) {
      const response = await test.app.inject({ url: `/docs/${page}` });
      assert.equal(response.statusCode, 200);
      assert.match(response.headers['content-type'] as string, /^text\/html/);
      assert.match(response.headers['content-security-policy'] as string, /default-src 'none'/);
      const found = ids(response.body);
      for (const anchor of anchors) assert.ok(found.has(anchor), `#${anchor} on /docs/${page}`);
    }
  });

  it('links every column definition to a section that exists', async () => {
    const pages = new Map<string, Set<string>>();
    for (const page of ['statistics', 'ratings'])
      pages.set(page, ids((await test.app.inject({ url: `/docs/${page}` })).body));
    for (const [key, definition] of Object.entries(DEFINITIONS)) {
      const [page, anchor] = definition.doc.split('#');
      assert.ok(pages.get(page)?.has(anchor), `${key}: /docs/${definition.doc} has no section`);
    }
  });

  it("keeps the pages' links to each other on Muster", async () => {
    const body = (await test.app.inject({ url: '/docs/statistics' })).body;
    assert.match(body, /href="\/docs\/ratings#glicko-2"/);
    assert.doesNotMatch(body, /href="[a-z-]+\.md/);
    assert.equal(localHref('http-api.md#the-common-filter'), '/docs');
    // A document the service does not serve stays text, never a broken link.
    assert.equal(localHref('data-model.md#lists'), null);
    assert.equal(slug("A player's page"), 'a-players-page');
    assert.equal(slug('minGames and lowSample'), 'mingames-and-lowsample');
  });
});
