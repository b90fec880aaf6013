/**
 * What players expect from the anchors (docs/ratings.md "A player's page",
 * docs/statistics.md#score-distribution), in a real browser at 1440x900 and 390x844 on the demo
 * slice and the committed T9A slice: a player page lists the player's games one by one, and a
 * faction page draws its scores bar by bar on the 0-20 scale. Screenshots go to
 * test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeMeta } from '../../src/store/store.ts';
import {
  ARTIFACTS,
  browserSkipReason,
  launchBrowser,
  screenshot,
  serveTestApp,
  SIZES,
  until,
  watchedPage,
} from '../support/browser.ts';
import type { Browser, Size } from '../support/browser.ts';
import { t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const skip = browserSkipReason();

interface Ranked {
  player: { id: string };
  games: number;
}

/** A POST from the served origin (the one the app allows), as the dashboard sends it. */
async function post(test: TestApp, origin: string, url: string, body: object) {
  const res = await test.app.inject({ method: 'POST', url, payload: body, headers: { origin } });
  return { status: res.statusCode, json: res.json() };
}
const DATA = t9aSeedPaths() === null ? (['demo-slice'] as const) : (['demo-slice', 't9a'] as const);

for (const seed of DATA) {
  describe(
    `player games and faction scores on ${seed} (${TEST_BACKEND})`,
    { skip: skip ?? false },
    () => {
      let browser: Browser;
      let test: TestApp;
      let origin: string;
      let player: { id: string; games: number };
      let faction: { id: string; sides: number };

      before(async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        ({ test, origin } = await serveTestApp({ seed }));
        if (seed === 'demo-slice') {
          await writeMeta(test.store.db, 'demo', 'generated for the browser test');
          await test.snapshots.reload();
        }
        const ranked = await post(test, origin, '/api/rankings', {
          pageSize: 100,
          includeProvisional: true,
        });
        assert.equal(ranked.status, 200, JSON.stringify(ranked.json));
        const rows = ranked.json.data.players;
        const busiest = rows.reduce((a: Ranked, b: Ranked) => (b.games > a.games ? b : a));
        player = { id: busiest.player.id, games: busiest.games };
        const f = (await post(test, origin, '/api/faction-stats', {})).json.data.factions[0];
        faction = { id: f.faction.id, sides: f.sides };
        browser = await launchBrowser();
      });
      after(async () => {
        await browser?.close();
        await test?.close();
      });

      for (const size of Object.keys(SIZES) as Size[]) {
        it(`lists a player's games one by one, latest first (${size})`, async () => {
          const watched = await watchedPage(browser, origin);
          const p = watched.page;
          await p.setViewportSize(SIZES[size]);
          await p.goto(`${origin}/?view=player&player=${encodeURIComponent(player.id)}`);
          const table = p.getByTestId('player-games');
          await table.waitFor();
          const rows = table.locator('tbody tr');
          assert.equal(await rows.count(), Math.min(player.games, 50));
          const dates = await rows.locator('td:first-child, th:first-child').allInnerTexts();
          for (let i = 1; i < dates.length; i += 1)
            assert.ok(dates[i] <= dates[i - 1], dates.join());
          const first = await rows.first().innerText();
          assert.match(first, /\b(Win|Draw|Loss)\b/);
          assert.match(first, /\d+–\d+/);
          assert.match(first, /[+−]\d+|\b0\b/, 'a rating change');
          // The T9A slice ends months before today, so every deviation has grown since: the line
          // that says so is a caption under the rating, not a second value.
          const rdSince = p.getByTestId('rd-since');
          if (seed === 't9a') await rdSince.waitFor();
          if ((await rdSince.count()) > 0) {
            const [caption, value] = await Promise.all(
              [rdSince, p.getByTestId('player-rating')].map((l) =>
                l.evaluate((el) => parseFloat(getComputedStyle(el).fontSize)),
              ),
            );
            assert.ok(caption < value * 0.8, `caption ${caption}px against the value's ${value}px`);
          }
          await table.scrollIntoViewIfNeeded();
          await screenshot(p, { path: join(ARTIFACTS, `player-games-${seed}-${size}.png`) });
          assert.deepEqual(watched.errors, []);
          await p.close();
        });

        it(`draws a faction's scores on the 0-20 scale (${size})`, async () => {
          const watched = await watchedPage(browser, origin);
          const p = watched.page;
          await p.setViewportSize(SIZES[size]);
          await p.goto(`${origin}/?view=faction&faction=${encodeURIComponent(faction.id)}`);
          const figure = p.getByTestId('score-distribution');
          await figure.waitFor();
          assert.equal(await figure.locator('svg rect.bar').count(), 21);
          assert.match(
            await figure.locator('figcaption').innerText(),
            new RegExp(`${faction.sides.toLocaleString('en')} scored sides`),
          );
          await until(async () => (await figure.boundingBox()) !== null);
          const box = (await figure.locator('svg').boundingBox())!;
          assert.ok(box.x + box.width <= SIZES[size].width, 'the bars fit the screen');
          await figure.scrollIntoViewIfNeeded();
          await screenshot(p, { path: join(ARTIFACTS, `faction-scores-${seed}-${size}.png`) });
          assert.deepEqual(watched.errors, []);
          await p.close();
        });
      }
    },
  );
}
