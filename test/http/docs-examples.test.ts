/**
 * The /docs "try it" examples work on the data being served (docs/http-api.md#discovery): every
 * request example of every POST route, and the calendar feed's query example, answers 200 with
 * games counted, on the demo data `npm start` seeds and on real T9A results alike. No example
 * names a system or a data-specific id.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, t9aSeedPaths, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

interface Media {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  requestBody?: { content: Record<string, Media> };
}
type Paths = Record<string, Record<string, Operation>>;

async function examplesOf(app: TestApp): Promise<Array<{ path: string; body: object }>> {
  const response = await app.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
  const paths = (response.json() as { paths: Paths }).paths;
  const out: Array<{ path: string; body: object }> = [];
  for (const [path, ops] of Object.entries(paths)) {
    const media = ops.post?.requestBody?.content['application/json'];
    if (media === undefined) continue;
    // What /docs offers to try: the media example, or each of its named examples.
    const examples =
      media.example !== undefined
        ? [media.example]
        : Object.values(media.examples ?? {}).map((e) => e.value);
    for (const body of examples) out.push({ path, body: body as object });
  }
  return out;
}

for (const seed of ['demo-slice', 't9a'] as const) {
  const skip =
    seed === 't9a' && t9aSeedPaths() === null ? 'no T9A data (test/fixtures/t9a)' : false;
  describe(`the /docs examples on ${seed} data (${TEST_BACKEND})`, { skip }, () => {
    let test: TestApp;
    before(async () => {
      test = await buildTestApp({ seed });
    });
    after(() => test?.close());

    it('answers every POST request example with a 200 that counts games, naming no system', async () => {
      const examples = await examplesOf(test);
      assert.ok(new Set(examples.map((e) => e.path)).size >= 7, 'a POST route has no example');
      for (const { path, body } of examples) {
        assert.equal('system' in body, false, `${path}: the example names a system`);
        // A forecast names two players, and no player is in every data set: its example names
        // two of the T9A results' (src/http/routes/forecast.ts).
        if (path === '/api/forecast' && seed !== 't9a') continue;
        // A team matrix names factions, which differ too: its example is the demo data's.
        if (path === '/api/team-matrix' && seed !== 'demo-slice') continue;
        const response = await test.app.inject({
          method: 'POST',
          url: path,
          headers: { origin: TEST_ORIGIN },
          payload: body,
        });
        assert.equal(
          response.statusCode,
          200,
          `${path} ${JSON.stringify(body)}: ${response.body.slice(0, 300)}`,
        );
        const meta = (response.json() as { meta: { sample?: { games: number } } }).meta;
        // The pairing draft rests on the captain's matrix, not on games.
        const gameless = ['/api/upcoming-satellites', '/api/scenario', '/api/team-pairing'];
        if (!gameless.includes(path)) {
          assert.ok((meta.sample?.games ?? 0) > 0, `${path}: no game counted`);
        }
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
