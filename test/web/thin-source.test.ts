/**
 * Less clutter on a source that lacks a field (docs/operations.md#web-client), in a real browser
 * at 1440x900 and 390x844 on the committed T9A slice, beside the demo slice that has the field:
 * no column that no row fills (Events' Country and Rules), no filter with one choice (Tiers),
 * "no scenario data" on an empty Scenarios tab rather than a struck-through one, no mention of a
 * countries filter the bar does not offer, the matchup grid in faction-name order and About's
 * dates those of the data. Screenshots go to test-artifacts/web/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
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

type Seed = 'demo-slice' | 't9a';

interface Served {
  test: TestApp;
  origin: string;
}

async function open(p: Page, origin: string, query: string): Promise<void> {
  await p.goto(`${origin}/?${query}`);
  await p.locator('main h1, main table, main .status').first().waitFor();
  await until(
    async () =>
      (await p.locator('main .status[role=status]:not(.empty), .reloading').count()) === 0,
  );
}

/** The bar's list filters offered, by name ("Tiers", "Countries", "Rules"). */
async function listFilters(p: Page): Promise<string[]> {
  const names = await p.locator('details.checklist > summary').allTextContents();
  return names.map((n) => n.split(':')[0]!.trim());
}

const skip = browserSkipReason() ?? (t9aSeedPaths() === null ? 'no T9A data' : null);

describe(`a source that lacks a field (${TEST_BACKEND})`, { skip: skip ?? false }, () => {
  let browser: Browser;
  const served = new Map<Seed, Served>();

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    served.set('demo-slice', await serveTestApp({ seed: 'demo-slice', shared: true }));
    served.set('t9a', await serveTestApp({ seed: 't9a', shared: true }));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const s of served.values()) await s.test.close();
  });

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`shows what the T9A data has and only that (${size})`, async () => {
      const t9a = served.get('t9a')!;
      const demo = served.get('demo-slice')!;
      const filters = await t9a.test.app.inject({ method: 'GET', url: '/api/filters' });
      const system = filters.json().data.systems[0] as {
        tiers: unknown[];
        countries: unknown[];
        from: string;
        to: string;
      };
      // What the slice lacks: one tier, no countries, no rules versions on its events.
      assert.equal(system.tiers.length, 1);
      assert.equal(system.countries.length, 0);

      const watched = await watchedPage(browser, t9a.origin);
      const p = watched.page;
      await p.setViewportSize(SIZES[size]);

      // Events: no column of dashes; the demo, which records both, keeps them.
      await open(p, t9a.origin, 'view=events');
      const heads = async () =>
        (await p.locator('[data-testid=events-table] thead th').allInnerTexts()).map((h) =>
          h.replace(/[↕▲▼]/g, '').trim(),
        );
      const t9aHeads = await heads();
      assert.ok(!t9aHeads.includes('Country') && !t9aHeads.includes('Rules'), t9aHeads.join('|'));
      assert.ok(t9aHeads.includes('Winner'), t9aHeads.join('|'));
      if ((await p.locator('details.filter-fold[open]').count()) === 0)
        await p.locator('details.filter-fold > summary').click();
      assert.ok(!(await listFilters(p)).includes('Tiers'), 'a Tiers filter with one tier');
      await screenshot(p, { path: join(ARTIFACTS, `thin-events-t9a-${size}.png`) });

      // Scenarios: the empty part says so, nothing struck through.
      await open(p, t9a.origin, 'view=scenarios');
      const tab = p.getByTestId('kind-scenario');
      assert.match(await tab.innerText(), /\(no scenario data\)/);
      assert.equal(
        await tab.evaluate((el) => getComputedStyle(el).textDecorationLine),
        'none',
        'a struck-through tab',
      );
      await screenshot(p, { path: join(ARTIFACTS, `thin-scenarios-t9a-${size}.png`) });

      // Rankings: no word of a countries filter the bar does not offer.
      await open(p, t9a.origin, 'view=rankings');
      assert.doesNotMatch(await p.getByTestId('order-note').innerText(), /countr/i);

      // Matchups: rows and columns by faction name.
      await open(p, t9a.origin, 'view=matchups');
      const columns = await p.locator('.heatmap thead th.col-head').allInnerTexts();
      assert.ok(columns.length > 2);
      assert.deepEqual(
        columns,
        [...columns].sort((a, b) => a.localeCompare(b, 'en')),
      );
      assert.deepEqual(await p.locator('.heatmap tbody th').allInnerTexts(), columns);

      // About: the data's own first and last dates.
      await open(p, t9a.origin, 'view=about');
      assert.equal(await p.getByTestId('data-range').innerText(), `${system.from} to ${system.to}`);
      await screenshot(p, { path: join(ARTIFACTS, `thin-about-t9a-${size}.png`) });
      assert.deepEqual(watched.errors, []);
      await p.close();

      // The demo has countries and rules versions: their columns and the note stay.
      const d = await watchedPage(browser, demo.origin);
      await d.page.setViewportSize(SIZES[size]);
      await open(d.page, demo.origin, 'view=events');
      const demoHeads = (
        await d.page.locator('[data-testid=events-table] thead th').allInnerTexts()
      ).map((h) => h.replace(/[↕▲▼]/g, '').trim());
      assert.ok(demoHeads.includes('Country') && demoHeads.includes('Rules'), demoHeads.join('|'));
      await screenshot(d.page, { path: join(ARTIFACTS, `thin-events-demo-slice-${size}.png`) });
      await open(d.page, demo.origin, 'view=rankings');
      assert.match(await d.page.getByTestId('order-note').innerText(), /countries/);
      assert.deepEqual(d.errors, []);
      await d.page.close();
    });
  }
});
