/**
 * "Right now" by default and numbers that agree (docs/operations.md#web-client), in a real
 * browser at 1440x900 and 390x844 on the demo slice and the committed T9A slice: Meta opens on
 * the current rules version (or the last 12 months where a system records none), says so, and
 * sorts by strength; clearing the window shows all data and a link keeps it so; Lists' "N lists
 * in scope" is the store's count of lists. Screenshots go to test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
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
const DATA = t9aSeedPaths() === null ? (['demo-slice'] as const) : (['demo-slice', 't9a'] as const);

for (const seed of DATA) {
  describe(
    `Meta right now, Lists' counts on ${seed} (${TEST_BACKEND})`,
    { skip: skip ?? false },
    () => {
      let browser: Browser;
      let test: TestApp;
      let origin: string;
      let rules: string[];

      before(async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        ({ test, origin } = await serveTestApp({ seed }));
        if (seed === 'demo-slice') {
          await writeMeta(test.store.db, 'demo', 'generated for the browser test');
          await test.snapshots.reload();
        }
        const res = await test.app.inject({
          method: 'GET',
          url: '/api/filters',
          headers: { origin },
        });
        const system = res.json().data.systems[0];
        rules = [...system.rulesVersions]
          .sort((a: { from: string }, b: { from: string }) => (a.from < b.from ? -1 : 1))
          .map((r: { value: string }) => r.value);
        browser = await launchBrowser();
      });
      after(async () => {
        await browser?.close();
        await test?.close();
      });

      for (const size of Object.keys(SIZES) as Size[]) {
        it(`opens Meta on the current rules version or the last year, strongest first (${size})`, async () => {
          const watched = await watchedPage(browser, origin);
          const p = watched.page;
          await p.setViewportSize(SIZES[size]);
          await p.goto(`${origin}/`);
          const note = p.getByTestId('meta-window');
          await note.waitFor();
          const url = new URL(p.url());
          if (rules.length > 0) {
            assert.equal(url.searchParams.get('rules'), rules.at(-1));
            assert.match(await note.innerText(), /current rules version/);
          } else {
            assert.match(url.searchParams.get('from') ?? '', /^\d{4}-\d{2}-\d{2}$/);
            assert.match(await note.innerText(), /last 12 months/);
          }
          const sorted = p.locator('main table th[aria-sort]');
          await until(async () => (await sorted.count()) > 0);
          assert.match(await sorted.first().innerText(), /pilot skill/i);
          await watched.quiet();
          await screenshot(p, { path: join(ARTIFACTS, `meta-right-now-${seed}-${size}.png`) });
          assert.deepEqual(watched.errors, []);
          await p.close();
        });
      }

      it('keeps all data once the window is cleared, in a link too', async () => {
        const watched = await watchedPage(browser, origin);
        const p = watched.page;
        await p.goto(`${origin}/`);
        await p.getByTestId('meta-window').waitFor();
        const url = new URL(p.url());
        url.searchParams.delete('rules');
        url.searchParams.delete('from');
        // As the filter bar's clearing does: the same page, the window gone.
        await p.evaluate((href) => {
          window.history.pushState(null, '', href);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, url.toString());
        await until(async () => new URL(p.url()).searchParams.get('window') === 'all');
        assert.equal(await p.getByTestId('meta-window').count(), 0);
        const other = await watchedPage(browser, origin);
        await other.page.goto(p.url());
        await other.page.locator('[data-testid=games]').waitFor();
        assert.equal(new URL(other.page.url()).searchParams.get('rules'), null);
        await other.page.close();
        await p.close();
      });

      it('quotes the ratings alone only with a warning where they lose to a coin flip', async () => {
        const inject = async (url: string, payload: object) =>
          (await test.app.inject({ method: 'POST', url, payload, headers: { origin } })).json();
        const accuracy = await inject('/api/forecast-accuracy', {});
        const by = (m: string) =>
          accuracy.data.models.find((x: { model: string }) => x.model === m);
        const ranked = await inject('/api/rankings', { pageSize: 2, includeProvisional: true });
        const quality = ranked.meta.predictionQuality;
        const loses =
          by('rating').brier > by('coin').brier || quality.brier > quality.coinFlip.brier;
        const [a, b] = ranked.data.players.map((r: { player: { id: string } }) => r.player.id);
        const watched = await watchedPage(browser, origin);
        const p = watched.page;
        await p.goto(
          `${origin}/?view=player&player=${encodeURIComponent(a)}&vs=${encodeURIComponent(b)}`,
        );
        await p.getByTestId('forecast-model').waitFor();
        await watched.quiet();
        assert.equal(await p.getByTestId('coin-flip-warning').count(), loses ? 1 : 0);
        if (loses) {
          assert.match(
            await p.getByTestId('coin-flip-warning').innerText(),
            /worse than a\s+coin flip/,
          );
        }
        assert.deepEqual(watched.errors, []);
        await p.close();
      });

      it("says the store's count of lists on Lists", async () => {
        const { rows } = await sql<{
          n: number | string;
        }>`select count(distinct coalesce(s.list_id, e.list_id)) as n
        from sides s join games g on g.id = s.game_id
        left join entries e on e.event_id = g.event_id and e.player_id = s.player_id`.execute(
          test.store.db,
        );
        const lists = Number(rows[0].n);
        const watched = await watchedPage(browser, origin);
        const p = watched.page;
        await p.goto(`${origin}/?view=lists`);
        if (lists === 0) {
          await p.locator('main h1').waitFor();
          await p.close();
          return;
        }
        const label = p.getByTestId('lists-in-scope');
        await label.waitFor();
        assert.equal(await label.innerText(), `${lists.toLocaleString('en')} lists`);
        await screenshot(p, { path: join(ARTIFACTS, `lists-counts-${seed}-desktop.png`) });
        await p.close();
      });
    },
  );
}
