/**
 * Every name opens a page (docs/operations.md#web-client), in a real browser (Chromium through
 * playwright-core) at 1440x900 and 390x844, over the demo data and the committed T9A slice
 * (test/fixtures/t9a): from Meta to a faction, to its best player, to an event they played and
 * back, by links alone; each page opens from a shared URL; an unknown player id is said so in
 * plain words. Screenshots of the faction and player pages go to test-artifacts/web/.
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

interface Served {
  name: 'demo' | 't9a';
  test: TestApp;
  origin: string;
}

async function serve(seed: 'demo-slice' | 't9a'): Promise<Served> {
  const port = await freePort();
  const test = await buildTestApp({ seed, env: { MUSTER_PORT: String(port) } });
  if (seed === 'demo-slice') {
    await writeMeta(test.store.db, 'demo', 'generated for the browser test');
    await test.snapshots.reload();
  }
  await test.app.listen({ host: '127.0.0.1', port });
  return { name: seed === 't9a' ? 't9a' : 'demo', test, origin: `http://127.0.0.1:${port}` };
}

/** Waits until the page's numbers are in: a heading, no loading line, nothing reloading. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').waitFor();
  // Several sections load at once on these pages: wait for every one of them.
  const busy = page.locator('main .status[role=status]:not(.empty), .reloading');
  await until(async () => (await busy.count()) === 0);
}

async function open(page: Page, origin: string, query: string): Promise<void> {
  await page.goto(`${origin}/?${query}`);
  // Meta opens on "right now" by writing its window into the URL, then loads that window.
  if (query === '') await page.waitForURL(/[?&](rules|from|window)=/);
  await settled(page);
}

/** Follows a link by a plain click and waits for the page it opens. */
async function follow(page: Page, link: ReturnType<Page['locator']>, url: RegExp): Promise<void> {
  await link.scrollIntoViewIfNeeded();
  await link.click();
  await page.waitForURL(url);
  await settled(page);
}

const heading = (page: Page) => page.locator('main h1').innerText();

/** No sideways scrolling at this size. */
async function fits(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - window.innerWidth',
  );
  assert.ok(overflow <= 1, `${what} is ${overflow}px wider than the screen`);
}

const skipReason = browserSkipReason();

describe(`pages of players and factions (${TEST_BACKEND})`, { skip: skipReason ?? false }, () => {
  let browser: Browser;
  const served: Served[] = [];

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    served.push(await serve('demo-slice'));
    // The committed T9A slice: a missing fixture fails here rather than skipping the pages.
    served.push(await serve('t9a'));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const s of served) await s.test.close();
  });

  for (const data of ['demo', 't9a'] as const) {
    for (const size of Object.keys(SIZES) as Size[]) {
      it(`walks from Meta to a faction, its best player, an event and that player again, and back, by links alone (${data}, ${size})`, async () => {
        const s = served.find((x) => x.name === data);
        assert.ok(s !== undefined, 'no app serves this data');
        const { page, errors } = await watchedPage(browser, s.origin);
        await page.setViewportSize(SIZES[size]);
        await open(page, s.origin, '');
        const factionName = await page.locator('main table a.faction-name').first().innerText();
        // Meta sorts by strength once the model's figures arrive: follow the link by its name.
        const factionLink = page
          .locator('main table a.faction-name', { hasText: factionName })
          .first();
        await follow(page, factionLink, /view=faction&faction=/);
        assert.equal(await heading(page), factionName);
        await page.locator('#players-h').waitFor();
        await settled(page);
        await fits(page, `${data} faction page`);
        // Its event wins are listed event by event, each event a link to its page.
        const wins = await page.getByTestId('event-wins').innerText();
        if (parseInt(wins, 10) > 0) {
          const won = page.getByTestId('faction-events').locator('tbody a.event-name');
          assert.ok((await won.count()) > 0, 'event wins counted but none listed');
          assert.match((await won.first().getAttribute('href')) ?? '', /view=event&event=/);
          // T9A publishes no places: its wins are derived, and the tile says so
          // (docs/statistics.md#standings).
          if (data === 't9a') assert.match(wins, /^\d+ \((all|\d+) derived\)$/, wins);
        }
        // A shrunk matchup rate says so beside it, with the raw rate from the games
        // (docs/statistics.md#shrunk-win-rate).
        const best = page.getByTestId('best-matchups').locator('li');
        if ((await best.count()) > 0) {
          assert.match(
            (await best.first().innerText()).replace(/\s+/g, ' '),
            /\d+ % shrunk \(raw \d+ %, \d+ games?\)/,
          );
          assert.match(await page.getByTestId('shrinkage-note').innerText(), /raw rate/);
        }
        await screenshot(page, {
          path: join(ARTIFACTS, `${data}-faction-${size}-${TEST_BACKEND}.png`),
          fullPage: true,
        });

        const playerLink = page.locator('section[aria-labelledby=players-h] a.player-name').first();
        const playerName = await playerLink.innerText();
        await follow(page, playerLink, /view=player&player=/);
        assert.equal(await heading(page), playerName);
        assert.ok(await page.locator('main table a.faction-name').first().isVisible());
        await fits(page, `${data} player page`);
        await screenshot(page, {
          path: join(ARTIFACTS, `${data}-player-${size}-${TEST_BACKEND}.png`),
          fullPage: true,
        });

        const eventLink = page.locator('section[aria-labelledby=results-h] a.event-name').first();
        const eventName = await eventLink.innerText();
        await follow(page, eventLink, /view=event&event=/);
        assert.equal(await heading(page), eventName);
        // The player stands in its standings, a link back to their page.
        const back = page.locator('main a.player-name', { hasText: playerName }).first();
        await follow(page, back, /view=player&player=/);
        assert.equal(await heading(page), playerName);

        await page.goBack();
        await page.waitForURL(/view=event/);
        await settled(page);
        assert.equal(await heading(page), eventName);
        await page.goBack();
        await page.waitForURL(/view=player/);
        await settled(page);
        assert.equal(await heading(page), playerName);
        await page.goBack();
        await page.waitForURL(/view=faction/);
        await settled(page);
        assert.equal(await heading(page), factionName);
        await page.goBack();
        await settled(page);
        assert.equal(await heading(page), 'Meta');
        assert.deepEqual(errors, []);
        await page.close();
      });
    }

    it(`opens a faction's and a player's page from a shared URL, filter kept (${data})`, async () => {
      const s = served.find((x) => x.name === data);
      assert.ok(s !== undefined, 'no app serves this data');
      const { page, errors } = await watchedPage(browser, s.origin);
      await open(page, s.origin, 'view=rankings&provisional=1');
      const first = page.locator('main tbody tr a.player-name').first();
      const playerHref = (await first.getAttribute('href'))!;
      const playerName = await first.innerText();
      const factionCell = page.locator('main tbody tr a.faction-name').first();
      const factionHref = (await factionCell.getAttribute('href'))!;
      const factionName = await factionCell.innerText();
      // A fresh page from the shared link alone (no history), then the same with a date filter.
      for (const [href, name] of [
        [playerHref, playerName],
        [factionHref, factionName],
      ]) {
        const shared = await watchedPage(browser, s.origin);
        await open(shared.page, s.origin, href.slice(1));
        assert.equal(await heading(shared.page), name);
        await open(shared.page, s.origin, `${href.slice(1)}&from=2000-01-01`);
        assert.equal(await heading(shared.page), name);
        assert.match(shared.page.url(), /from=2000-01-01/);
        assert.deepEqual(shared.errors, []);
        await shared.page.close();
      }
      assert.deepEqual(errors, []);
      await page.close();
    });

    it(`says in plain words that a player or faction id is unknown (${data})`, async () => {
      const s = served.find((x) => x.name === data);
      assert.ok(s !== undefined, 'no app serves this data');
      const { page } = await watchedPage(browser, s.origin);
      await open(page, s.origin, 'view=player&player=no-such-player');
      const message = page.getByTestId('unknown-player');
      assert.match(await message.innerText(), /There is no player “no-such-player”/);
      assert.equal(await heading(page), 'Player not found');
      await open(page, s.origin, 'view=faction&faction=no-such-faction');
      assert.match(
        await page.getByTestId('unknown-faction').innerText(),
        /There is no faction “no-such-faction”/,
      );
      await page.close();
    });
  }

  /**
   * The demo's top-ranked player's page, opened from the rankings by its link, with the name of
   * the player ranked second to search for as the opponent.
   */
  async function openTopPlayer() {
    const s = served[0];
    const watched = await watchedPage(browser, s.origin);
    const { page } = watched;
    await open(page, s.origin, 'view=rankings&provisional=1');
    const links = page.locator('main tbody tr a.player-name');
    const opponent = await links.nth(1).innerText();
    await follow(page, links.first(), /view=player/);
    return { ...watched, opponent };
  }

  it('keeps the text typed in the opponent search while the player page reloads (demo)', async () => {
    const { page, errors, opponent } = await openTopPlayer();
    const search = page.getByLabel('Find an opponent');
    // Typed, then at once (within the search box's 300 ms pause) a filter that reloads the page.
    await search.fill(opponent);
    await page.getByLabel('Format').selectOption({ index: 1 });
    await page.waitForURL(/format=/);
    assert.equal(await search.inputValue(), opponent, 'the typed text survives the reload');
    await page.locator('.candidates button', { hasText: opponent }).first().waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('forecasts a chosen opponent, found by the search box (demo)', async () => {
    const { page, errors, opponent } = await openTopPlayer();
    await page.getByLabel('Find an opponent').fill(opponent);
    await page.locator('.candidates button', { hasText: opponent }).first().click();
    await page.waitForURL(/vs=/);
    await page.getByTestId('forecast').waitFor();
    await until(async () => !(await page.getByTestId('forecast').innerText()).includes('…'));
    // The joint model's forecast with its interval when both factions are known, else the
    // ratings' alone.
    assert.match(await page.getByTestId('forecast').innerText(), /^\d+ %( \d+–\d+ %)?$/);
    await settled(page);
    await screenshot(page, {
      path: join(ARTIFACTS, `demo-player-versus-desktop-${TEST_BACKEND}.png`),
      fullPage: true,
    });
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes('vs='));
    assert.deepEqual(errors, []);
    await page.close();
  });
});
