import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { post } from '../support/post-json.ts';
import { buildTestApp, t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

interface Distribution {
  min: number;
  max: number;
  counts: number[];
  offScale: number;
}
interface Row {
  faction: { id: string };
  sides: number;
  avgScore: number | null;
  scoreDistribution?: Distribution | null;
}

describe(
  `faction score distributions on the real T9A slice (${TEST_BACKEND})`,
  {
    skip: t9aSeedPaths() === null ? 'no T9A data' : false,
  },
  () => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp({ seed: 't9a', shared: true });
    });
    after(async () => t.close());

    it("counts every side's score on the 0-20 scale, with the mean the average score gives", async () => {
      const { status, json } = await post(t, '/api/faction-stats', { scoreDistribution: true });
      assert.equal(status, 200);
      const rows: Row[] = json.data.factions;
      assert.ok(rows.length > 5);
      let sides = 0;
      for (const r of rows) {
        const d = r.scoreDistribution!;
        assert.equal(d.min, 0);
        assert.equal(d.max, 20);
        assert.equal(d.counts.length, 21);
        assert.equal(d.offScale, 0);
        const n = d.counts.reduce((a, b) => a + b, 0);
        assert.equal(n, r.sides, r.faction.id);
        const mean = d.counts.reduce((a, c, i) => a + c * (d.min + i), 0) / n;
        assert.ok(Math.abs(mean - r.avgScore!) < 1e-9, `${r.faction.id}: ${mean} v ${r.avgScore}`);
        sides += n;
      }
      // Every game of T9A has two scored sides with known factions.
      assert.equal(sides, 2 * json.meta.sample.games);
      assert.equal(json.meta.filter.scoreDistribution, true);
    });

    it('leaves the distribution out unless asked', async () => {
      const { json } = await post(t, '/api/faction-stats', {});
      assert.ok(json.data.factions.every((r: Row) => r.scoreDistribution === undefined));
      assert.equal(json.meta.filter.scoreDistribution, false);
    });
  },
);
