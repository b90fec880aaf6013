/**
 * Every player field finds a player by name or by the start of their id (the picker,
 * web/src/components/player-picker.tsx), in a real browser at 1440x900 and 390x844 on the demo
 * slice and the committed T9A slice (ids only): Forecasts takes the six characters a page shows,
 * with or without "#", and a shared link holding only those characters is completed.
 * Screenshots go to test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
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

interface Ranked {
  player: { id: string; shortId: string; name: string | null };
  games: number;
}

/** Types into a fieldset's search field and picks the candidate with `id`. */
async function pick(page: Page, legend: string, text: string, id: string): Promise<void> {
  const set = page.locator('fieldset', { has: page.locator('legend', { hasText: legend }) });
  await set.getByRole('searchbox').fill(text);
  await set.getByRole('searchbox').press('Enter');
  const button = set.locator(`[data-testid=player-candidates] button[data-player="${id}"]`);
  await button.waitFor();
  await button.click();
  await set.getByTestId('chosen-player').waitFor();
}

for (const seed of DATA) {
  describe(`player fields on ${seed} (${TEST_BACKEND})`, { skip: skip ?? false }, () => {
    let browser: Browser;
    let test: TestApp;
    let origin: string;
    let a: Ranked;
    let b: Ranked;

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      ({ test, origin } = await serveTestApp({ seed }));
      if (seed === 'demo-slice') {
        await writeMeta(test.store.db, 'demo', 'generated for the browser test');
        await test.snapshots.reload();
      }
      const res = await test.app.inject({
        method: 'POST',
        url: '/api/rankings',
        payload: { pageSize: 2, includeProvisional: true },
        headers: { origin },
      });
      [a, b] = res.json().data.players as Ranked[];
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await test?.close();
    });

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`forecasts two players found by id prefix and by name (${size})`, async () => {
        const watched = await watchedPage(browser, origin);
        const p = watched.page;
        await p.setViewportSize(SIZES[size]);
        await p.goto(`${origin}/?view=forecast`);
        await p.locator('main h2#forecast-h').waitFor();
        // The six characters every page shows for the player, as shown: with a "#".
        await pick(p, 'Player 1', `#${a.player.shortId.slice(0, 6)}`, a.player.id);
        const second = b.player.name?.trim() ? b.player.name.slice(0, 5) : b.player.shortId;
        await pick(p, 'Player 2', second, b.player.id);
        const forecast = p.getByTestId('forecast');
        await forecast.waitFor();
        assert.match(await forecast.innerText(), /\d+(\.\d)? %/);
        const url = new URL(p.url());
        assert.equal(url.searchParams.get('p1'), a.player.id);
        assert.equal(url.searchParams.get('p2'), b.player.id);
        await screenshot(p, { path: join(ARTIFACTS, `forecast-picker-${seed}-${size}.png`) });
        assert.deepEqual(watched.errors, []);
        await p.close();
      });
    }

    it('completes a shared link that holds only the short ids', async () => {
      const watched = await watchedPage(browser, origin);
      const p = watched.page;
      const short = (r: Ranked) => r.player.shortId;
      await p.goto(`${origin}/?view=forecast&p1=${short(a)}&p2=${short(b)}`);
      await until(async () => new URL(p.url()).searchParams.get('p1') === a.player.id);
      await until(async () => new URL(p.url()).searchParams.get('p2') === b.player.id);
      await p.getByTestId('forecast').waitFor();
      await p.close();
    });

    it("finds an opponent on a player's page by id prefix", async () => {
      const watched = await watchedPage(browser, origin);
      const p = watched.page;
      await p.goto(`${origin}/?view=player&player=${encodeURIComponent(a.player.id)}`);
      const box = p.locator('#h2h-h ~ * input[type=search], .player-picker input').first();
      await box.fill(b.player.id.slice(0, 6));
      await box.press('Enter');
      const button = p.locator(
        `[data-testid=player-candidates] button[data-player="${b.player.id}"]`,
      );
      await button.waitFor();
      await button.click();
      await p.getByTestId('head-to-head').waitFor();
      assert.equal(new URL(p.url()).searchParams.get('vs'), b.player.id);
      await p.close();
    });
  });
}
