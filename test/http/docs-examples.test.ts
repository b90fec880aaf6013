/**
 * The OpenAPI document's examples work on the data being served (docs/http-api.md#discovery):
 * every request example of every route (a body, a body field, a query parameter) answers 2xx on
 * the demo data `npm start` seeds, and on real T9A results alike but for the forecast, whose
 * example names two players of the demo. No example names a system.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, t9aSeedPaths, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

interface Media {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
  schema?: { properties?: Record<string, { example?: unknown; examples?: unknown[] }> };
}
interface Operation {
  requestBody?: { content: Record<string, Media> };
  parameters?: Array<{ in: string; name: string; example?: unknown }>;
}
type Paths = Record<string, Record<string, Operation>>;

/** One request an example of the document makes; `whole` when it is a whole body's example. */
interface ExampleRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  whole: boolean;
}

function bodyExamples(path: string, media: Media): ExampleRequest[] {
  // What /docs offers to try: the media example, or each of its named examples.
  const wholes =
    media.example !== undefined
      ? [media.example]
      : Object.values(media.examples ?? {}).map((e) => e.value);
  const out: ExampleRequest[] = wholes.map((body) => ({
    method: 'POST',
    path,
    body: body as Record<string, unknown>,
    whole: true,
  }));
  for (const [name, field] of Object.entries(media.schema?.properties ?? {})) {
    for (const value of field.example !== undefined ? [field.example] : (field.examples ?? [])) {
      out.push({ method: 'POST', path, body: { [name]: value }, whole: false });
    }
  }
  return out;
}

async function examplesOf(app: TestApp): Promise<ExampleRequest[]> {
  const response = await app.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
  const paths = (response.json() as { paths: Paths }).paths;
  const out: ExampleRequest[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    const media = ops.post?.requestBody?.content['application/json'];
    if (media !== undefined) out.push(...bodyExamples(path, media));
    for (const parameter of ops.get?.parameters ?? []) {
      if (parameter.in !== 'query' || parameter.example === undefined) continue;
      const query = { [parameter.name]: String(parameter.example) };
      out.push({ method: 'GET', path, query, whole: false });
    }
  }
  return out;
}

for (const seed of ['demo', 't9a'] as const) {
  const skip =
    seed === 't9a' && t9aSeedPaths() === null ? 'no T9A data (test/fixtures/t9a)' : false;
  describe(`the OpenAPI examples on ${seed} data (${TEST_BACKEND})`, { skip }, () => {
    let test: TestApp;
    before(async () => {
      // Whether an example answers, not how fast: a shared test machine may take more than the
      // default time limit for the first computations over the whole demo.
      test = await buildTestApp({ seed, config: { requestTimeoutMs: 300_000 } });
    });
    after(() => test?.close());

    it('answers every request example with a 2xx, a whole body one counting games', async () => {
      const examples = await examplesOf(test);
      const posted = new Set(examples.filter((e) => e.whole).map((e) => e.path));
      assert.ok(posted.size >= 10, `only ${posted.size} POST routes have an example`);
      assert.ok(
        examples.some((e) => e.method === 'GET'),
        'no query parameter example',
      );
      for (const { method, path, body, query, whole } of examples) {
        const asked = `${method} ${path} ${JSON.stringify(body ?? query)}`;
        assert.equal(body !== undefined && 'system' in body, false, `${asked}: names a system`);
        // The forecast's example names two players of the demo data: no player is in every set.
        if (path === '/api/forecast' && seed !== 'demo') continue;
        // A team matrix names factions, which differ between data sets too.
        if (path === '/api/team-matrix' && seed !== 'demo') continue;
        // The projection's example names an event of the demo data.
        if (path === '/api/event-projection' && seed !== 'demo') continue;
        const response = await test.app.inject({
          method,
          url: path,
          query,
          headers: { origin: TEST_ORIGIN },
          ...(body === undefined ? {} : { payload: body }),
        });
        assert.ok(
          response.statusCode >= 200 && response.statusCode < 300,
          `${asked}: ${response.statusCode} ${response.body.slice(0, 300)}`,
        );
        // The calendar, the catalogue and the pairing draft (a captain's matrix) count no games.
        const gameless = ['/api/upcoming-satellites', '/api/scenario', '/api/team-pairing'];
        if (!whole || gameless.includes(path)) continue;
        const meta = (response.json() as { meta: { sample?: { games: number } } }).meta;
        assert.ok((meta.sample?.games ?? 0) > 0, `${asked}: no game counted`);
      }
    });

    it('answers the calendar feed example with a 200 calendar', async () => {
      const response = await test.app.inject({
        method: 'GET',
        url: '/api/upcoming-satellites.ics?near=48.85,2.35,2000',
      });
      assert.equal(response.statusCode, 200, response.body.slice(0, 300));
      assert.match(response.body, /^BEGIN:VCALENDAR/);
    });
  });
}
