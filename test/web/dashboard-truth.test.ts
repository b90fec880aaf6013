/**
 * The dashboard tells the truth on any screen (docs/operations.md#web-client), in a real browser
 * (Chromium through playwright-core) at 1440x900 and 390x844, over the demo data and over the
 * committed T9A slice (test/fixtures/t9a): the value a ranking is ordered by is the one shown,
 * players without names are shown by id, list deltas carry their interval (muted when it spans
 * 0), the heatmap is coloured by the shrunk win rate. Screenshots of every page at both sizes go
 * to test-artifacts/web/ (git-ignored).
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
import { importSources } from '../../src/ingest/import-sources.ts';
import { buildTestApp, t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { MENU_VIEWS } from '../../web/src/menu.ts';

/** Every page of the dashboard's menu, as the client lists it. */
const PAGES = MENU_VIEWS;

interface Served {
  test: TestApp;
  origin: string;
}

/** An app over the demo slice (marked demo) or the T9A slice, listening on 127.0.0.1. */
async function serve(seed: 'demo-slice' | 't9a'): Promise<Served> {
  const port = await freePort();
  const test = await buildTestApp({ seed, env: { MUSTER_PORT: String(port) } });
  if (seed === 'demo-slice') {
    await writeMeta(test.store.db, 'demo', 'generated for the browser test');
    await test.snapshots.reload();
  }
  await test.app.listen({ host: '127.0.0.1', port });
  return { test, origin: `http://127.0.0.1:${port}` };
}

/** Opens a view and waits until its numbers are in (no status line left). */
async function open(page: Page, origin: string, query: string): Promise<void> {
  await page.goto(`${origin}/?${query}`);
  await page.locator('main h1').waitFor();
  await page.locator('main .status[role=status]:not(.empty)').waitFor({ state: 'detached' });
  await page.locator('.reloading').waitFor({ state: 'detached' });
}

async function sized(browser: Browser, origin: string, size: Size) {
  const watched = await watchedPage(browser, origin);
  await watched.page.setViewportSize(SIZES[size]);
  return watched;
}

/** The browser's getComputedStyle, typed here (the tests compile without the DOM library). */
interface CssWindow {
  getComputedStyle(element: unknown): { color: string; fontWeight: string };
}

const numberIn = (text: string): number => Number(text.replace(/[^\d.−-]/g, '').replace('−', '-'));

const t9aPaths = t9aSeedPaths();
const skipReason = browserSkipReason();

describe(
  `the dashboard's numbers and screens (${TEST_BACKEND})`,
  { skip: skipReason ?? false },
  () => {
    let browser: Browser;
    let demo: Served;
    let t9a: Served | null = null;

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      demo = await serve('demo-slice');
      if (t9aPaths !== null) t9a = await serve('t9a');
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await demo?.test.close();
      await t9a?.test.close();
    });

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`ranks by the value it shows, says what it is, and marks provisional players (${size})`, async () => {
        const { page, errors } = await sized(browser, demo.origin, size);
        // The demo slice's three events leave every Glicko-2 player provisional (RD above 110).
        await open(page, demo.origin, 'view=rankings&provisional=1');
        assert.match(await page.getByTestId('order-column').innerText(), /Rating − 2·RD/);
        assert.match(await page.getByTestId('order-note').innerText(), /rating − 2·RD/);
        assert.ok(await page.getByTestId('order-value').first().isVisible());
        const values = (await page.getByTestId('order-value').allInnerTexts()).map(numberIn);
        const ranks = (await page.locator('main tbody tr td:first-child').allInnerTexts()).map(
          Number,
        );
        assert.ok(values.length > 1);
        for (let i = 1; i < values.length; i++) {
          assert.ok(values[i - 1] >= values[i], `row ${i + 1} shows more than row ${i}`);
          assert.ok(ranks[i - 1] <= ranks[i]);
        }
        assert.equal(
          await page.locator('main tbody tr').count(),
          await page.locator('main tbody tr .badge', { hasText: 'provisional' }).count(),
        );
        await page.getByLabel('Elo').check();
        await page.waitForURL(/method=elo/);
        await page.locator('.reloading').waitFor({ state: 'detached' });
        assert.equal(await page.getByTestId('order-column').innerText(), 'Rating');
        const elo = (await page.getByTestId('order-value').allInnerTexts()).map(numberIn);
        for (let i = 1; i < elo.length; i++) assert.ok(elo[i - 1] >= elo[i]);
        assert.deepEqual(errors, []);
        await page.close();
      });

      it(`names a player by their short unique id where the real data has no names (${size})`, async (t) => {
        if (t9a === null) return t.skip('no T9A data (test/fixtures/t9a)');
        const { page, errors } = await sized(browser, t9a.origin, size);
        await open(page, t9a.origin, 'view=rankings&provisional=1');
        const first = page.locator('main tbody tr .player-name').first();
        assert.ok(await first.isVisible());
        // The shortest prefix unique in the data, at least 6 characters; the whole id in the
        // tooltip and the link.
        assert.match(await first.innerText(), /^#\S{6,}$/);
        const names = await page.locator('main tbody tr .player-name').allInnerTexts();
        assert.ok(
          names.every((n) => n.trim() !== ''),
          'a blank player cell',
        );
        assert.equal(new Set(names).size, names.length, 'two players shown alike');
        const title = (await first.getAttribute('title')) ?? '';
        const id = title.replace(/^player /, '');
        assert.ok(id.startsWith((await first.innerText()).slice(1)), `${title} holds the shown id`);
        assert.ok(id.length > (await first.innerText()).length - 1, 'the shown id is a prefix');
        assert.ok(((await first.getAttribute('href')) ?? '').includes(encodeURIComponent(id)));
        assert.deepEqual(errors, []);
        await page.close();
      });

      it(`draws each list delta with its interval, muted when it spans 0, and sorts by evidence (${size})`, async () => {
        const { page, errors } = await sized(browser, demo.origin, size);
        await open(page, demo.origin, 'view=lists&sort=delta');
        const deltas = page.locator('main tbody .delta');
        assert.ok((await deltas.count()) > 0);
        const spanning = page.locator('main tbody .delta[data-spans-zero=true]');
        assert.ok((await spanning.count()) > 0, 'sorted by delta, noise heads the page');
        const first = spanning.first();
        assert.ok(await first.isVisible());
        assert.match(await first.locator('.delta-range').innerText(), /[−+±]\d+ pp … [−+±]\d+ pp/);
        // Muted: grey and regular weight; only an emphasised delta (20 lists each side, interval
        // excluding 0, significant after Benjamini–Hochberg; docs/statistics.md#emphasis) is bold.
        const style = (selector: string) =>
          page
            .locator(selector)
            .first()
            .evaluate((el) => {
              const style = (globalThis as unknown as CssWindow).getComputedStyle(el);
              return [style.color, style.fontWeight];
            });
        const ink = await page.evaluate<string>('getComputedStyle(document.body).color');
        const [mutedColour, mutedWeight] = await style(
          'main tbody .delta[data-spans-zero=true] .delta-text',
        );
        assert.notEqual(mutedColour, ink);
        assert.equal(mutedWeight, '400');
        if (size === 'desktop') {
          assert.ok(await page.getByRole('columnheader', { name: 'Skill-adjusted' }).isVisible());
        }
        // The sort is the API's: wait for its answer, then for the page to leave its reloading
        // state (waiting on the marker alone could pass before it appeared, on the old rows).
        const sorted = page.waitForResponse(
          (r) =>
            r.url().endsWith('/api/item-use-stats') &&
            /"evidence"/.test(r.request().postData() ?? ''),
        );
        await page.getByLabel('Sort by').selectOption('evidence');
        await page.waitForURL(/sort=evidence/);
        await sorted;
        await page.locator('.reloading').waitFor({ state: 'detached' });
        const top = page.locator('main tbody .delta').first();
        assert.equal(await top.getAttribute('data-spans-zero'), 'false');
        const [, topWeight] = await style('main tbody .delta .delta-text');
        const emphasised = (await top.getAttribute('data-muted')) === 'false';
        assert.equal(Number(topWeight) >= 600, emphasised, `top weight ${topWeight}`);
        // The demo slice is small: its clearest delta rests on too few lists, so it is muted.
        if (!emphasised)
          assert.match((await top.getAttribute('title')) ?? '', /fewer than 20 lists|corrected/);
        assert.deepEqual(errors, []);
        await page.close();
      });

      it(`colours the heatmap by the shrunk win rate with the raw rate in the cell (${size})`, async () => {
        const { page, errors } = await sized(browser, demo.origin, size);
        const answer = page.waitForResponse('**/api/army-matchup');
        await open(page, demo.origin, 'view=matchups');
        const cells = (
          (await (await answer).json()) as {
            data: {
              cells: Array<{
                faction: string;
                opponent: string;
                winRate: number | null;
                shrunkWinRate: number | null;
                lowSample: boolean;
              }>;
            };
          }
        ).data.cells.filter((c) => c.winRate !== null);
        let pulled = 0;
        for (const cell of cells) {
          const button = page.locator(`button.heat[data-cell="${cell.faction}~${cell.opponent}"]`);
          assert.equal(Number(await button.getAttribute('data-colour-rate')), cell.shrunkWinRate);
          assert.match(
            await button.innerText(),
            new RegExp(`^${Math.round(cell.winRate! * 100)}\\b`),
          );
          if (cell.lowSample && (cell.winRate === 0 || cell.winRate === 1)) {
            assert.ok(
              Math.abs(cell.shrunkWinRate! - 0.5) < 0.5,
              'an extreme cell is not pulled in',
            );
            pulled++;
          }
        }
        assert.ok(pulled > 0, 'the demo slice has one-sided small cells');
        assert.deepEqual(errors, []);
        await page.close();
      });
    }

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`fits the trend chart's axis to its points, keeps each faction's colour, labels periods and marks a partial one (${size})`, async () => {
        const { page, errors } = await sized(browser, demo.origin, size);
        // All data by quarters: Meta opens on the current rules version, by months when short.
        await open(page, demo.origin, 'window=all&period=quarter');
        const chart = page.locator('.trend .chart');
        await chart.locator('canvas').waitFor();
        const yMin = Number(await chart.getAttribute('data-y-min'));
        const yMax = Number(await chart.getAttribute('data-y-max'));
        await page.getByText('The chart as a table').click();
        const cells = await page.locator('.as-table tbody td').allInnerTexts();
        const rates = cells.filter((c) => c !== '–').map((c) => Number(c.split(' %')[0]) / 100);
        assert.ok(rates.length > 0);
        for (const rate of rates) assert.ok(yMin <= rate && rate <= yMax, `${rate} off the axis`);
        assert.ok(yMax - yMin < 0.99, 'the axis is fitted, not 0–100 %');
        const labels = JSON.parse((await chart.getAttribute('data-x-labels')) ?? '[]') as string[];
        assert.ok(labels.length > 0);
        for (const label of labels) assert.match(label, /^\d{4} Q[1-4]$/);
        // The slice's last events are this month: the current quarter is still in progress.
        assert.match(await page.getByTestId('partial-note').innerText(), /in progress/);
        assert.match(await page.locator('.as-table tbody tr').last().innerText(), /in progress/);
        const legend = page.locator('.chart-legend li[data-faction]');
        const first = (await legend.first().getAttribute('data-faction'))!;
        const colour = await legend.first().getAttribute('data-colour');
        // Adding and removing other factions leaves the first one's colour alone.
        await page
          .locator('.trend')
          .locator('..')
          .locator('summary', { hasText: 'Factions' })
          .click();
        const boxes = page.locator(
          'section[aria-labelledby=trend-h] fieldset input[type=checkbox]',
        );
        const count = await boxes.count();
        for (let k = count - 1; k >= count - 3; k--) {
          if (!(await boxes.nth(k).isChecked())) await boxes.nth(k).check();
        }
        await boxes.nth(1).uncheck();
        const again = page.locator(`.chart-legend li[data-faction="${first}"]`);
        assert.equal(await again.getAttribute('data-colour'), colour);
        await page.selectOption('section[aria-labelledby=trend-h] select', 'month');
        await page.waitForURL(/period=month/);
        // The months' answer replaces the chart once it arrives (the old one shows meanwhile).
        await until(async () =>
          /"[A-Z][a-z]{2} /.test((await chart.getAttribute('data-x-labels')) ?? ''),
        );
        const months = JSON.parse((await chart.getAttribute('data-x-labels')) ?? '[]') as string[];
        for (const label of months) assert.match(label, /^[A-Z][a-z]{2} \d{4}$/);
        assert.equal(
          await page
            .locator(`.chart-legend li[data-faction="${first}"]`)
            .getAttribute('data-colour'),
          colour,
        );
        assert.deepEqual(errors, []);
        await page.close();
      });
    }

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`opens a heatmap cell's details in view with focus, and keeps its labels when scrolled (${size})`, async () => {
        const { page, errors } = await sized(browser, demo.origin, size);
        await open(page, demo.origin, 'view=matchups');
        const wrap = page.locator('.heatmap-wrap');
        // Scroll the grid right and down: the row and column labels stay at its edges.
        await wrap.evaluate((el) => {
          el.scrollLeft = 400;
          el.scrollTop = 300;
        });
        const frame = (await wrap.boundingBox())!;
        const rowHead = (await page.locator('.heatmap tbody th').nth(6).boundingBox())!;
        const colHead = (await page.locator('.heatmap thead th').nth(3).boundingBox())!;
        assert.ok(
          Math.abs(rowHead.x - frame.x) <= 2,
          `row label at ${rowHead.x}, frame ${frame.x}`,
        );
        assert.ok(
          Math.abs(colHead.y - frame.y) <= 2,
          `column label at ${colHead.y}, frame ${frame.y}`,
        );
        await wrap.evaluate((el) => {
          el.scrollLeft = 0;
          el.scrollTop = 0;
        });
        const cell = page.locator('button.heat').nth(10);
        await cell.scrollIntoViewIfNeeded();
        await cell.click();
        const details = page.locator('.cell-details');
        await details.waitFor();
        await until(
          async () => await details.evaluate((el) => el === el.ownerDocument.activeElement),
        );
        const box = (await details.boundingBox())!;
        const view = SIZES[size];
        assert.ok(box.y >= 0 && box.y < view.height, `details start at ${box.y}`);
        assert.ok(
          box.y + Math.min(box.height, 120) <= view.height,
          'details heading off the screen',
        );
        await page.keyboard.press('Escape');
        await details.waitFor({ state: 'detached' });
        assert.deepEqual(errors, []);
        await page.close();
      });
    }

    it('keeps the columns that matter within a 390 px screen', async () => {
      const { page, errors } = await sized(browser, demo.origin, 'phone');
      const within = async (locator: ReturnType<Page['locator']>, what: string) => {
        const box = (await locator.boundingBox())!;
        assert.ok(box !== null && box.x >= 0 && box.x + box.width <= 390, `${what} off screen`);
      };
      await open(page, demo.origin, 'view=meta');
      await within(page.getByRole('columnheader', { name: /Win rate/ }), 'Meta win rate');
      // The row's first interval is the win rate's; the after-pilot-skill column has one too.
      await within(
        page.locator('main tbody tr').first().locator('.interval-range').first(),
        'its interval',
      );
      await within(
        page.getByRole('columnheader', { name: /After pilot skill/ }),
        'Meta after pilot skill',
      );
      await open(page, demo.origin, 'view=lists');
      for (const name of [/Win rate with/, /Without/, /Delta/]) {
        await within(page.getByRole('columnheader', { name }), `Lists ${name}`);
      }
      await within(page.locator('main tbody .delta').first(), 'a delta');
      await open(page, demo.origin, 'view=satellites');
      await within(page.getByRole('columnheader', { name: 'Register' }), 'Satellites register');
      await within(page.getByRole('link', { name: 'register' }).first(), 'a register link');
      await open(page, demo.origin, 'view=rankings&provisional=1');
      await within(page.getByTestId('order-value').first(), 'the ranking value');
      await open(page, demo.origin, 'view=about');
      await within(page.getByRole('columnheader', { name: 'Games' }), 'About games');
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('folds the filter bar to one line naming the active filters, and shows a page only its filters', async () => {
      const { page, errors } = await sized(browser, demo.origin, 'phone');
      await open(page, demo.origin, 'view=meta&size=8&format=singles');
      const fold = page.locator('.filter-fold');
      assert.ok((await fold.boundingBox())!.height <= 48, 'the folded bar is more than a line');
      assert.match(await page.getByTestId('active-filters').innerText(), /8\+ players · singles/);
      await page.locator('.filter-fold > summary').click();
      assert.ok(await page.getByLabel('Event size').isVisible());
      const desktop = await sized(browser, demo.origin, 'desktop');
      await open(desktop.page, demo.origin, 'view=meta');
      assert.ok(await desktop.page.getByLabel('Event size').isVisible(), 'open on a wide screen');
      await desktop.page.close();
      await open(page, demo.origin, 'view=satellites');
      await page.locator('.filter-fold > summary').click();
      for (const name of ['Event size', 'Format', 'Online']) {
        assert.equal(await page.getByLabel(name).count(), 0, `Satellites shows ${name}`);
      }
      assert.equal(await page.locator('.filter-fold summary', { hasText: 'Tiers' }).count(), 0);
      const from = page.getByLabel('From', { exact: true });
      const today = new Date().toISOString().slice(0, 10);
      assert.equal(await from.getAttribute('min'), today);
      assert.equal(await from.getAttribute('max'), null, 'the date picker stops before the future');
      const ahead = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
      const request = page.waitForRequest('**/api/upcoming-satellites');
      await page.getByLabel('To', { exact: true }).fill(ahead);
      assert.equal(JSON.parse((await request).postData() ?? '{}').to, ahead);
      await open(page, demo.origin, 'view=about');
      assert.equal(await page.locator('.filter-fold').count(), 0, 'About shows filters');
      assert.deepEqual(errors, []);
      await page.close();
    });

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`draws the provisional checkbox at its size and shows no pager on an empty answer (${size})`, async () => {
        const { page, errors } = await sized(browser, demo.origin, size);
        await open(page, demo.origin, 'view=rankings');
        const box = (await page.getByLabel('Include provisional players').boundingBox())!;
        assert.ok(box.width <= 24 && box.height <= 24, `a ${box.width}x${box.height} checkbox`);
        for (const view of ['rankings', 'lists', 'satellites']) {
          const query = view === 'satellites' ? 'sfrom=2099-01-01' : 'q=zzzzqqq';
          await open(page, demo.origin, `view=${view}&${query}`);
          await page.locator('main .status.empty').waitFor();
          assert.equal(await page.locator('.pager').count(), 0, `${view}: a pager on nothing`);
          assert.doesNotMatch(await page.locator('main').innerText(), /0–0 of 0/);
        }
        assert.deepEqual(errors, []);
        await page.close();
      });
    }

    it('fits every page to both sizes on the demo and the T9A data, with a screenshot of each', async () => {
      for (const [name, served] of [
        ['demo', demo],
        ['t9a', t9a],
      ] as const) {
        if (served === null) continue;
        for (const size of Object.keys(SIZES) as Size[]) {
          const { page, errors, quiet } = await sized(browser, served.origin, size);
          for (const view of PAGES) {
            const extra = view === 'rankings' ? '&provisional=1' : '';
            await open(page, served.origin, `view=${view}${extra}`);
            await quiet();
            const overflow = await page.evaluate<number>(
              'document.documentElement.scrollWidth - window.innerWidth',
            );
            assert.ok(overflow <= 1, `${name} ${view} is ${overflow}px wider than the ${size}`);
            await screenshot(page, {
              path: join(ARTIFACTS, `${name}-${view}-${size}-${TEST_BACKEND}.png`),
              fullPage: true,
            });
          }
          assert.deepEqual(errors, []);
          await page.close();
        }
      }
    });

    it('labels demo data per system: gone for real results imported beside it, and on real data alone', async (t) => {
      if (t9a === null) return t.skip('no T9A data (test/fixtures/t9a)');
      const alone = await sized(browser, t9a.origin, 'desktop');
      await open(alone.page, t9a.origin, 'view=about');
      assert.equal(await alone.page.locator('.demo, .demo-long').count(), 0);
      await alone.page.close();
      // Real results imported into the demo store: the label stays on the demo system only.
      await importSources(demo.test.store, t9aPaths!, { format: 't9a' });
      await demo.test.snapshots.reload();
      for (const size of Object.keys(SIZES) as Size[]) {
        const { page, errors } = await sized(browser, demo.origin, size);
        await open(page, demo.origin, 'view=meta&system=t9a');
        assert.equal(await page.locator('.demo').count(), 0, 'real results labelled demo');
        await open(page, demo.origin, 'view=meta&system=demo-fantasy');
        assert.match(await page.locator('.demo').innerText(), /Demo data/);
        await open(page, demo.origin, 'view=about');
        assert.match(await page.locator('.demo-long').innerText(), /Demo Fantasy Battles/);
        assert.deepEqual(errors, []);
        await page.close();
      }
    });
  },
);
