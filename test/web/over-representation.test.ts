/**
 * Over-representation (docs/statistics.md#over-representation) in a real browser at 1440x900
 * and 390x844 on the demo slice: the Meta page's section shows each faction's top-10 % ratio as
 * the API answers it, muted exactly where its interval includes 1, and the faction page shows
 * its three ratios. Screenshots go to test-artifacts/web/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  ARTIFACTS,
  browserSkipReason,
  freePort,
  launchBrowser,
  screenshot,
  SIZES,
  watchedPage,
} from '../support/browser.ts';
import type { Browser, Size } from '../support/browser.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function open(page: Page, origin: string, query: string): Promise<void> {
  await page.goto(`${origin}/?${query}`);
  await page.locator('main h1').waitFor();
  // The faction page loads several sections at once: wait until none is loading.
  await page.waitForFunction(
    () => document.querySelector('main .status[role=status]:not(.empty), .reloading') === null,
  );
}

const skipReason = browserSkipReason();

describe(
  `over-representation on the dashboard (${TEST_BACKEND})`,
  { skip: skipReason ?? false },
  () => {
    let browser: Browser;
    let test: TestApp;
    let origin: string;
    let rows: Row[];

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const port = await freePort();
      test = await buildTestApp({
        seed: 'demo-slice',
        shared: true,
        env: { MUSTER_PORT: String(port) },
      });
      await test.app.listen({ host: '127.0.0.1', port });
      origin = `http://127.0.0.1:${port}`;
      const res = await test.app.inject({
        method: 'POST',
        url: '/api/faction-stats',
        payload: {},
        headers: { origin },
      });
      rows = res.json().data.factions;
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await test?.close();
    });

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`shows each faction's top-10 % ratio on Meta, muted where it spans 1 (${size})`, async () => {
        const w = await watchedPage(browser, origin);
        await w.page.setViewportSize(SIZES[size]);
        await open(w.page, origin, 'view=meta&window=all');
        const section = w.page.getByTestId('over-representation');
        await section.scrollIntoViewIfNeeded();
        assert.match(await section.locator('h2').innerText(), /Over-representation/);
        const placed = rows.filter((r) => r.overRepresentation.topTen.ratio !== null);
        assert.ok(placed.length > 0, 'the demo has factions with top-10 % ratios');
        const bars = section.locator('tbody [data-spans-one]');
        assert.ok((await bars.count()) >= placed.length);
        for (const r of placed.slice(0, 3)) {
          const o = r.overRepresentation.topTen;
          const cell = section.locator('tbody tr', { hasText: r.faction.name }).first();
          const bar = cell.locator('[data-spans-one]').first();
          assert.match(await bar.innerText(), new RegExp(`×${o.ratio.toFixed(2)}`));
          const spans = o.interval.low <= 1 && o.interval.high >= 1;
          assert.equal(await bar.getAttribute('data-spans-one'), String(spans));
        }
        await screenshot(section, {
          path: join(ARTIFACTS, `over-representation-meta-${size}.png`),
        });
        assert.deepEqual(w.errors, []);
      });

      it(`shows the three ratios on the faction page (${size})`, async () => {
        const r = rows.find((x) => x.overRepresentation.topTen.ratio !== null)!;
        const w = await watchedPage(browser, origin);
        await w.page.setViewportSize(SIZES[size]);
        await open(w.page, origin, `view=faction&faction=${encodeURIComponent(r.faction.id)}`);
        const top = w.page.getByTestId('over-top');
        await top.scrollIntoViewIfNeeded();
        assert.match(
          await top.innerText(),
          new RegExp(`×${r.overRepresentation.topTen.ratio.toFixed(2)}`),
        );
        await w.page.getByTestId('over-wins').waitFor();
        await w.page.getByTestId('over-undefeated').waitFor();
        await screenshot(w.page.locator('section[aria-labelledby=over-h]'), {
          path: join(ARTIFACTS, `over-representation-faction-${size}.png`),
        });
        assert.deepEqual(w.errors, []);
      });
    }
  },
);
