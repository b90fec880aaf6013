/**
 * The events browser and the pages' smaller truths (docs/operations.md#web-client), in a real
 * browser at 1440x900, 390x844 and 320x640, over the demo slice and the committed T9A slice
 * (test/fixtures/t9a): every heatmap row can be reached, Scenarios opens on a part with data, the
 * events browser sorts by a header and links each event to its page, the skill-adjusted column
 * carries its interval, and the trend's lines each have a colour of their own. Screenshots go to
 * test-artifacts/web/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { CanonicalDocument } from '../../src/domain/model.ts';
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
import type { Browser } from '../support/browser.ts';
import { buildTestApp, t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const SCREENS = { ...SIZES, narrow: { width: 320, height: 640 } } as const;
type Screen = keyof typeof SCREENS;

interface Served {
  test: TestApp;
  origin: string;
}

/** 60 events, event k of 2 + (k mod 7) players in one round, so the list needs two pages. */
function manyEvents(): CanonicalDocument {
  const events = Array.from({ length: 60 }, (_, k) => {
    const players = 2 + (k % 7);
    const games = Array.from({ length: Math.floor(players / 2) }, (_, g) => ({
      id: `e${k}-g${g}`,
      sides: [
        { player: `p${2 * g}`, faction: 'A', result: 'win' },
        { player: `p${2 * g + 1}`, faction: 'B', result: 'loss' },
      ],
    }));
    const day = String(1 + (k % 28)).padStart(2, '0');
    const month = String(1 + Math.floor(k / 28)).padStart(2, '0');
    return {
      id: `ev${k}`,
      system: 'tt',
      name: `Event ${k}`,
      start: `2025-${month}-${day}`,
      status: 'completed',
      format: 'singles',
      games,
    };
  });
  return {
    format: 'muster/v1',
    systems: [{ id: 'tt', name: 'Test Tactics' }],
    factions: [
      { id: 'A', system: 'tt', name: 'Alpha' },
      { id: 'B', system: 'tt', name: 'Beta' },
    ],
    players: Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, name: `Player ${i}` })),
    events,
  } as unknown as CanonicalDocument;
}

async function serve(seed: 'demo-slice' | 't9a' | CanonicalDocument): Promise<Served> {
  const port = await freePort();
  const test = await buildTestApp({ seed, shared: true, env: { MUSTER_PORT: String(port) } });
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

async function overflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
}

/** Every row of the heatmap can be brought into its frame and onto the screen. */
async function heatmapRowsReachable(page: Page, screen: Screen): Promise<void> {
  const wrap = page.locator('.heatmap-wrap');
  const rows = page.locator('.heatmap tbody tr');
  const count = await rows.count();
  assert.ok(count > 1, `${count} rows`);
  // Either the frame holds every row, or it says that more lie below.
  const [scrollHeight, clientHeight] = await wrap.evaluate((el) => [
    el.scrollHeight,
    el.clientHeight,
  ]);
  if (scrollHeight > clientHeight + 2) {
    assert.match(await page.getByTestId('heatmap-more').innerText(), /More rows below/);
  } else if (screen === 'desktop') {
    assert.equal(await page.getByTestId('heatmap-more').count(), 0, 'no "more" when none');
  }
  for (let r = 0; r < count; r++) {
    const cell = rows.nth(r).locator('th');
    await cell.scrollIntoViewIfNeeded();
    const frame = (await wrap.boundingBox())!;
    const box = (await cell.boundingBox())!;
    assert.ok(
      box.y >= frame.y - 1 && box.y + box.height <= frame.y + frame.height + 1,
      `row ${r + 1} of ${count} at ${box.y}–${box.y + box.height}, frame ${frame.y}–${frame.y + frame.height}`,
    );
    assert.ok(box.y >= -1 && box.y + box.height <= SCREENS[screen].height + 1, `row ${r + 1}`);
  }
}

/** The numbers of a column's cells, in the order shown. */
async function numbers(page: Page, testId: string): Promise<number[]> {
  const texts = await page.getByTestId(testId).allInnerTexts();
  return texts.map((t) => Number(t.trim().split(/\s/)[0].replace(/[^\d]/g, '')));
}

const t9aPaths = t9aSeedPaths();
const skipReason = browserSkipReason();

describe(
  `the events browser and the pages' smaller truths (${TEST_BACKEND})`,
  { skip: skipReason ?? false },
  () => {
    let browser: Browser;
    const served: Array<[string, Served]> = [];

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      served.push(['demo', await serve('demo-slice')]);
      if (t9aPaths !== null) served.push(['t9a', await serve('t9a')]);
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      for (const [, s] of served) await s.test.close();
    });

    for (const screen of Object.keys(SCREENS) as Screen[]) {
      it(`reaches every heatmap row and opens Scenarios on a part with data (${screen})`, async () => {
        for (const [name, { origin }] of served) {
          const { page, errors } = await watchedPage(browser, origin);
          await page.setViewportSize(SCREENS[screen]);
          await open(page, origin, 'view=matchups');
          await heatmapRowsReachable(page, screen);
          await screenshot(page, {
            path: join(ARTIFACTS, `issue36-${name}-matchups-${screen}-${TEST_BACKEND}.png`),
          });
          await open(page, origin, 'view=scenarios');
          const pressed = page.locator('.tabs button[aria-pressed=true]');
          assert.equal(await pressed.count(), 1);
          assert.equal(await page.locator('main .status.empty').count(), 0, `${name}: empty tab`);
          assert.ok((await page.locator('main table tbody tr').count()) > 0, `${name}: no rows`);
          assert.ok((await overflow(page)) <= 1, `${name} scenarios wider than ${screen}`);
          await screenshot(page, {
            path: join(ARTIFACTS, `issue36-${name}-scenarios-${screen}-${TEST_BACKEND}.png`),
            fullPage: true,
          });
          assert.deepEqual(errors, [], name);
          await page.close();
        }
      });

      it(`sorts the events by a header and links each to its page (${screen})`, async () => {
        for (const [name, { origin }] of served) {
          const { page, errors } = await watchedPage(browser, origin);
          await page.setViewportSize(SCREENS[screen]);
          await page.goto(`${origin}/`);
          await page.locator('nav[aria-label=Pages] a', { hasText: 'Events' }).click();
          await page.waitForURL(/view=events/);
          await page.locator('[data-testid=events-table] tbody tr').first().waitFor();
          assert.ok((await overflow(page)) <= 1, `${name} events wider than ${screen}`);
          await screenshot(page, {
            path: join(ARTIFACTS, `issue36-${name}-events-${screen}-${TEST_BACKEND}.png`),
            fullPage: true,
          });
          const dates = await page.getByTestId('event-date').allInnerTexts();
          assert.deepEqual(dates, [...dates].sort().reverse(), `${name}: newest first`);
          if (name === 't9a' && screen === 'desktop') {
            // T9A publishes no placings: a winner shown is one its rule derived, and says so.
            const winners = await page.getByTestId('event-winner').allInnerTexts();
            const placed = winners.filter((w) => w.includes('#'));
            assert.ok(placed.length > 0, 'some T9A event has a derived winner');
            for (const w of placed) assert.match(w, /\(derived\)$/, w);
          }
          const table = page.getByTestId('events-table');
          await table.locator('thead button', { hasText: 'Players' }).click();
          const players = await numbers(page, 'event-players');
          assert.deepEqual(
            players,
            [...players].sort((a, b) => b - a),
            `${name}: most players first`,
          );
          assert.equal(
            await table.locator('thead th', { hasText: 'Players' }).getAttribute('aria-sort'),
            'descending',
          );
          // A text column sorts ascending at its first click.
          await table.locator('thead button', { hasText: 'Date' }).click();
          const ascending = await page.getByTestId('event-date').allInnerTexts();
          assert.deepEqual(ascending, [...ascending].sort(), `${name}: oldest first`);
          const link = page.getByTestId('event-name').first().locator('a');
          const eventName = await link.innerText();
          const href = (await link.getAttribute('href'))!;
          await link.click();
          await page.waitForURL(/view=event&|view=event$|[?&]event=/);
          assert.match(
            page.url(),
            new RegExp(`event=${new URL(href, origin).searchParams.get('event')}`),
          );
          await until(async () => (await page.locator('main h1').innerText()).includes(eventName));
          assert.deepEqual(errors, [], name);
          await page.close();
        }
      });
    }

    it('pages a long list 50 at a time, sorting all of it', async () => {
      const many = await serve(manyEvents());
      const { page, errors } = await watchedPage(browser, many.origin);
      await open(page, many.origin, 'view=events');
      const pager = page.locator('nav.pager');
      assert.match(await pager.innerText(), /1–50 of 60 events/);
      assert.equal(await page.getByTestId('event-date').count(), 50);
      await page
        .getByTestId('events-table')
        .locator('thead button', { hasText: 'Players' })
        .click();
      assert.deepEqual(
        [...new Set(await numbers(page, 'event-players'))].slice(0, 1),
        [8],
        'the most players of all 60 first',
      );
      await pager.getByRole('button', { name: /Next/ }).click();
      assert.match(await pager.innerText(), /51–60 of 60 events/);
      const last = await numbers(page, 'event-players');
      assert.equal(last.length, 10);
      assert.deepEqual(
        last,
        [...last].sort((a, b) => b - a),
      );
      assert.equal(last[last.length - 1], 2);
      assert.deepEqual(errors, []);
      await page.close();
      await many.test.close();
    });

    it('searches the events by name', async () => {
      const [name, { origin }] = served[served.length - 1];
      const { page, errors } = await watchedPage(browser, origin);
      await open(page, origin, 'view=events');
      const first = await page.getByTestId('event-name').first().innerText();
      const word = first.split(/\s+/).find((w) => w.length > 3) ?? first;
      await page.getByLabel('Event name').fill(word);
      await page.waitForURL(/[?&]q=/);
      await until(async () => {
        const names = await page.getByTestId('event-name').allInnerTexts();
        return names.length > 0 && names.every((n) => n.toLowerCase().includes(word.toLowerCase()));
      });
      assert.deepEqual(errors, [], name);
      await page.close();
    });

    for (const screen of ['desktop', 'phone'] as const) {
      it(`gives skill-adjusted deltas their interval and each trend line its colour (${screen})`, async () => {
        for (const [name, { origin }] of served) {
          const { page, errors, quiet } = await watchedPage(browser, origin);
          await page.setViewportSize(SCREENS[screen]);
          await open(page, origin, '');
          await page.locator('.trend .chart canvas').waitFor();
          const colours = await page
            .locator('.chart-legend li[data-faction]')
            .evaluateAll((items) => items.map((li) => li.getAttribute('data-colour')));
          assert.ok(colours.length >= 2, `${name}: ${colours.length} lines`);
          assert.equal(new Set(colours).size, colours.length, `${name}: ${colours.join(' ')}`);
          assert.match(await page.getByTestId('thin-note').innerText(), /fewer than 30 games/);
          await quiet();
          await screenshot(page, {
            path: join(ARTIFACTS, `issue36-${name}-meta-${screen}-${TEST_BACKEND}.png`),
            fullPage: true,
          });
          if (screen === 'desktop') {
            await open(page, origin, 'view=lists');
            const cells = page.getByTestId('skill-adjusted');
            const texts = await cells.allInnerTexts();
            const known = texts.filter((t) => t.trim() !== '–').length;
            assert.equal(await cells.locator('.delta-range').count(), known, `${name}: intervals`);
            const greyed = await cells.locator('.delta.spans-zero').count();
            assert.ok(known === 0 || greyed > 0, `${name}: no greyed skill-adjusted delta`);
            await screenshot(page, {
              path: join(ARTIFACTS, `issue36-${name}-lists-${screen}-${TEST_BACKEND}.png`),
              fullPage: true,
            });
          }
          assert.deepEqual(errors, [], name);
          await page.close();
        }
      });
    }
  },
);
