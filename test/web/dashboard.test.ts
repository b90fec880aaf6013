/**
 * The dashboard at / in a real browser (Chromium through playwright-core) over the demo data:
 * every page loads with no console error and no request leaving the service, the filter bar
 * changes the numbers, a shared URL restores the view, a heatmap cell opens its details,
 * rankings page and search, and an API error is shown in words. Screenshots of every page go
 * to test-artifacts/web/ (git-ignored). See docs/operations.md#web-client.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeMeta } from '../../src/store/store.ts';
import {
  ARTIFACTS,
  browserSkipReason,
  freePort,
  launchBrowser,
  screenshot,
  until,
  watchedPage,
} from '../support/browser.ts';
import type { Browser } from '../support/browser.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { MENU_VIEWS } from '../../web/src/menu.ts';

/** Every page of the dashboard's menu, as the client lists it. */
const PAGES = MENU_VIEWS;

/** A demo-seeded app listening on 127.0.0.1 with the default allowed origins for its port. */
async function serve(env: Record<string, string> = {}): Promise<{ test: TestApp; origin: string }> {
  const port = await freePort();
  const test = await buildTestApp({
    seed: 'demo-slice',
    env: { MUSTER_PORT: String(port), ...env },
    // Whether each page shows its numbers, not how fast: a busy test machine may take more
    // than the default time limit for a page's first computations.
    config: { requestTimeoutMs: 120_000 },
  });
  await writeMeta(test.store.db, 'demo', 'generated for the browser test');
  await test.snapshots.reload();
  await test.app.listen({ host: '127.0.0.1', port });
  return { test, origin: `http://127.0.0.1:${port}` };
}

const skipReason = browserSkipReason();

describe(`the dashboard in a real browser (${TEST_BACKEND})`, { skip: skipReason ?? false }, () => {
  let browser: Browser;
  let served: { test: TestApp; origin: string };

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    served = await serve();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await served?.test.close();
  });

  it('shows every page on the demo data with no console error and no request leaving the service', async () => {
    const { page, errors, outside, quiet } = await watchedPage(browser, served.origin);
    for (const view of PAGES) {
      // The demo slice's three events leave every Glicko-2 player provisional (RD above 110).
      const extra = view === 'rankings' ? '&provisional=1' : '';
      await page.goto(`${served.origin}/?view=${view}${extra}`);
      await page.locator('main h1').waitFor();
      await quiet();
      // The demo slice's players hold no alike pair: that page says so in words, with no table.
      const none = view === 'alike';
      await assert.doesNotReject(
        page
          .locator(none ? 'main .status.empty[role=status]' : 'main .status[role=status]')
          .waitFor({ state: none ? 'visible' : 'detached' }),
      );
      const alerts = await page.locator('main [role=alert]').allInnerTexts();
      assert.deepEqual(alerts, [], `${view}: an error is shown`);
      // Team pairing opens on where its two teams come from; every other page on its table.
      const content = view === 'pairing' ? 'main .team-pairing [role=tablist]' : 'main table';
      if (!none) assert.ok((await page.locator(content).count()) > 0, `${view}: no ${content}`);
      await screenshot(page, {
        path: join(ARTIFACTS, `${view}-${TEST_BACKEND}.png`),
        fullPage: true,
      });
    }
    assert.match(await page.locator('.demo').innerText(), /Demo data/);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${served.origin}/`);
    await page.locator('[data-testid=games]').waitFor();
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - window.innerWidth',
    );
    assert.ok(overflow <= 1, `the page is ${overflow}px wider than a phone`);
    await screenshot(page, {
      path: join(ARTIFACTS, `meta-phone-${TEST_BACKEND}.png`),
      fullPage: true,
    });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${served.origin}/?view=matchups`);
    await page.locator('button.heat').first().waitFor();
    await screenshot(page, {
      path: join(ARTIFACTS, `matchups-dark-${TEST_BACKEND}.png`),
      fullPage: true,
    });
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    await page.close();
  });

  it('changes the numbers shown when the filter bar changes, and a shared URL restores the view', async () => {
    const { page, errors } = await watchedPage(browser, served.origin);
    await page.goto(`${served.origin}/`);
    const games = page.locator('[data-testid=games]');
    await games.waitFor();
    const before = await games.innerText();
    // The trend chart is drawn on a canvas; its numbers are also a table behind a summary.
    await page.getByText('The chart as a table').click();
    const trendRows = page.locator('.as-table tbody tr');
    assert.ok((await trendRows.count()) >= 1);
    assert.match(await trendRows.first().innerText(), /\d{4}-(Q\d|\d{2})[\s\S]*%/);
    const size = page.getByLabel('Event size');
    const options = await size
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    await size.selectOption(options[options.length - 1]);
    await page.waitForURL(/size=/);
    await until(async () => (await games.innerText()) !== before);
    await page.locator('.reloading').waitFor({ state: 'detached' });
    const after = await games.innerText();
    assert.notEqual(after, before);
    await page.getByRole('link', { name: 'Rankings' }).click();
    await page.getByLabel('Elo').check();
    await page.waitForURL(/method=elo/);
    const shared = page.url();
    assert.match(shared, /size=/, 'the filter is kept across pages');

    const other = await watchedPage(browser, served.origin);
    await other.page.goto(shared);
    await other.page.locator('main table tbody tr').first().waitFor();
    assert.equal(await other.page.getByRole('heading', { level: 1 }).innerText(), 'Rankings');
    assert.ok(await other.page.getByLabel('Elo').isChecked());
    assert.equal(
      await other.page.getByLabel('Event size').inputValue(),
      options[options.length - 1],
    );
    await other.page.getByRole('link', { name: 'Meta' }).click();
    assert.equal(await other.page.locator('[data-testid=games]').innerText(), after);
    assert.deepEqual([...errors, ...other.errors], []);
    await page.close();
    await other.page.close();
  });

  it('can be used from the keyboard alone: skip link, page links, filter bar', async () => {
    const { page, errors } = await watchedPage(browser, served.origin);
    await page.goto(`${served.origin}/`);
    await page.locator('[data-testid=games]').waitFor();
    const focused = () => page.evaluate<string>('document.activeElement?.textContent ?? ""');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Skip to the page');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Meta');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Matchups');
    await page.keyboard.press('Enter');
    await page.waitForURL(/view=matchups/);
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Matchups');
    await page.getByLabel('Format').focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForURL(/format=/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('says so in words when no game matches the filters', async () => {
    const { page, errors } = await watchedPage(browser, served.origin);
    for (const view of ['meta', 'matchups', 'scenarios']) {
      await page.goto(`${served.origin}/?view=${view}&from=2099-01-01`);
      await page.locator('main .status.empty').waitFor();
      assert.match(await page.locator('main .status.empty').innerText(), /No games/);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('opens a heatmap cell’s numbers when the cell is chosen', async () => {
    const { page, errors } = await watchedPage(browser, served.origin);
    await page.goto(`${served.origin}/?view=matchups`);
    const heat = page.locator('button.heat');
    await heat.first().waitFor();
    const labels = await heat.evaluateAll((els) =>
      els.map((e) => e.getAttribute('aria-label') ?? ''),
    );
    const mirror = (l: string) => {
      const [a, b] = l.split(':')[0].split(' against ');
      return a === b;
    };
    const details = page.locator('.cell-details');
    // A mirror cell shows its games only: its 50 % is true by definition.
    const m = labels.findIndex(mirror);
    assert.ok(m >= 0, 'the grid has a mirror cell');
    await heat.nth(m).click();
    await details.waitFor();
    assert.equal(await details.getByTestId('mirror-note').count(), 1);
    assert.doesNotMatch(await details.innerText(), /Wins \/ draws \/ losses|95 % interval/);
    const cell = heat.nth(labels.findIndex((l) => !mirror(l)));
    const label = (await cell.getAttribute('aria-label')) ?? '';
    await cell.focus();
    await page.keyboard.press('Enter');
    await details
      .locator('h2')
      .filter({ hasText: label.split(':')[0] })
      .waitFor();
    assert.equal(await details.locator('h2').innerText(), label.split(':')[0]);
    assert.match(await details.innerText(), /Wins \/ draws \/ losses\s+\d+ \/ \d+ \/ \d+/);
    assert.match(await details.innerText(), /95 % interval\s+[\d.]+ % – [\d.]+ %/);
    assert.match(page.url(), /cell=/);
    await page.reload();
    await details.waitFor();
    // The grid is one tab stop; arrow keys move between its cells.
    const focused = page.locator('button.heat[aria-pressed=true]');
    await focused.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const moved = (await focused.getAttribute('aria-label')) ?? '';
    assert.notEqual(moved, label);
    assert.equal(await details.locator('h2').innerText(), moved.split(':')[0]);
    assert.equal(await page.locator('button.heat[tabindex="0"]').count(), 1);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('pages and searches the rankings', async () => {
    const { page, errors } = await watchedPage(browser, served.origin);
    // The demo slice's three events leave every Glicko-2 player provisional (RD above 110).
    await page.goto(`${served.origin}/?view=rankings&provisional=1`);
    const rows = page.locator('main table tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 25);
    const pager = page.locator('.pager span');
    assert.match(await pager.innerText(), /^1–25 of \d+ players/);
    const firstPage = await rows.locator('th .player-name').allInnerTexts();
    const firstName = firstPage[0];
    await page.getByRole('button', { name: 'Next →' }).click();
    await until(async () => (await pager.innerText()).startsWith('26–'));
    assert.match(page.url(), /page=2/);
    const secondPage = await rows.locator('th .player-name').allInnerTexts();
    assert.equal(secondPage.length, Math.min(25, await rows.count()));
    assert.ok(
      secondPage.every((name) => !firstPage.includes(name)),
      'page 2 repeats page 1',
    );
    const surname = firstName.split(' ').at(-1)!;
    await page.getByLabel('Search players').fill(surname);
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=/);
    await until(async () => (await pager.innerText()).startsWith('1–'));
    const names = await rows.locator('th .player-name').allInnerTexts();
    assert.ok(names.length >= 1);
    for (const name of names) assert.match(name.toLowerCase(), new RegExp(surname.toLowerCase()));
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('says in words when the API refuses, and when to retry after a 429', async () => {
    const limited = await serve({
      MUSTER_RATE_LIMIT_MAX: '2',
      MUSTER_RATE_LIMIT_WINDOW_MS: '60000',
    });
    try {
      const { page } = await watchedPage(browser, limited.origin);
      // /api/filters and /api/faction-stats use up the two requests; the next page is refused.
      await page.goto(`${limited.origin}/`);
      await page.locator('[data-testid=games]').waitFor();
      await page.getByRole('link', { name: 'Matchups' }).click();
      const alert = page.locator('main [role=alert]');
      await alert.waitFor();
      const text = await alert.innerText();
      assert.match(text, /Too many requests \(429\)/);
      assert.match(text, /(retry|try again) in \d+ (seconds?|minutes?)\./i);
      await screenshot(page, { path: join(ARTIFACTS, `error-429-${TEST_BACKEND}.png`) });
      await page.close();
    } finally {
      await limited.test.close();
    }
  });

  it('takes when to retry from Retry-After when the problem does not say it', async () => {
    const { page } = await watchedPage(browser, served.origin);
    await page.route('**/api/rankings', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '7' },
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Too many requests',
          status: 429,
          detail: 'slow down',
        }),
      }),
    );
    await page.goto(`${served.origin}/?view=rankings`);
    const alert = page.locator('main [role=alert]');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Slow down\. Try again in 7 seconds\./);
    await page.close();
  });
});
