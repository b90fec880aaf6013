/**
 * The Strength and Forecast pages (docs/operations.md#web-client) in a real browser at 1440x900
 * and 390x844 on the demo data: faction strength after pilot skill beside the raw win rate, one
 * forecast with its parts, the accuracy table per model with its calibration chart and CSV link.
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
  freePort,
  launchBrowser,
  screenshot,
  SIZES,
  until,
  watchedPage,
} from '../support/browser.ts';
import type { Browser, Size } from '../support/browser.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

async function settled(page: Page): Promise<void> {
  await page.locator('main h1').waitFor();
  const busy = page.locator('main .status[role=status]:not(.empty), .reloading');
  await until(async () => (await busy.count()) === 0);
}

async function fits(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - window.innerWidth',
  );
  assert.ok(overflow <= 1, `${what} is ${overflow}px wider than the screen`);
}

const skipReason = browserSkipReason();

describe(`the Strength and Forecast pages (${TEST_BACKEND})`, { skip: skipReason ?? false }, () => {
  let browser: Browser;
  let test: TestApp;
  let origin = '';
  // Two players of one game of the data, with their factions.
  let game: string[] = [];

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await freePort();
    test = await buildTestApp({ seed: 'demo-slice', env: { MUSTER_PORT: String(port) } });
    await writeMeta(test.store.db, 'demo', 'generated for the browser test');
    await test.snapshots.reload();
    await test.app.listen({ host: '127.0.0.1', port });
    origin = `http://127.0.0.1:${port}`;
    const csv = await test.app.inject({ method: 'GET', url: '/api/forecast-accuracy.csv' });
    game = csv.body.split('\r\n')[1].split(',');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await test?.close();
  });

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`shows strength after pilot skill, a forecast and each model's accuracy (${size})`, async () => {
      const { page, errors } = await watchedPage(browser, origin);
      await page.setViewportSize(SIZES[size]);
      await page.goto(`${origin}/?view=strength`);
      await settled(page);
      const rows = page.getByTestId('strength-table').locator('tbody tr');
      assert.ok((await rows.count()) > 3, 'no faction rows');
      assert.match(await rows.first().innerText(), /\d+(\.\d)? %/);
      assert.ok((await page.locator('main svg.interval-svg').count()) > 3, 'no intervals drawn');
      await fits(page, 'strength page');
      await screenshot(page, {
        path: join(ARTIFACTS, `demo-strength-${size}-${TEST_BACKEND}.png`),
        fullPage: true,
      });

      const [, , , p1, p2, f1, f2] = game;
      await page.goto(`${origin}/?view=forecast&p1=${p1}&p2=${p2}&f1=${f1}&f2=${f2}`);
      await settled(page);
      const forecast = await page.getByTestId('forecast').innerText();
      assert.match(forecast, /\d+(\.\d)? %/);
      assert.match(forecast, /skill/);
      const models = page.getByTestId('accuracy-table').locator('tbody tr');
      assert.equal(await models.count(), 4);
      assert.match(await models.nth(3).innerText(), /Joint[\s\S]*0\.\d{4}/);
      assert.ok((await page.locator('figure.calibration svg circle').count()) > 0);
      const csv = page.locator('a[href^="/api/forecast-accuracy.csv"]');
      assert.equal(await csv.count(), 1);
      await fits(page, 'forecast page');
      await screenshot(page, {
        path: join(ARTIFACTS, `demo-forecast-${size}-${TEST_BACKEND}.png`),
        fullPage: true,
      });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
