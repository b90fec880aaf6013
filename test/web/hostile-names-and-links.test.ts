/**
 * Data that attacks the reader, in a real browser (Chromium through playwright-core): a stored
 * registration link that is not http(s) (docs/import-formats.md#links) is never rendered as an
 * href, and a name holding U+202E RIGHT-TO-LEFT OVERRIDE is isolated wherever it is shown (a
 * `<bdi>`), with no bidi control left in the document title. Screenshots go to
 * test-artifacts/web/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
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
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';

const RLO = '\u202E';
const FACTION = `Orcs ${RLO}sbolG dna`;
const PLAYER = `Ada ${RLO}evol`;
const SATELLITE = `Open ${RLO}nepO`;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

const side = (player: string, faction: string, score: number) => ({ player, faction, score });

const DOCUMENT = {
  format: 'muster/v1',
  systems: [{ id: 'tt', name: 'Test Game', score: { min: 0, max: 20, total: 20 } }],
  factions: [
    { id: 'rlo', system: 'tt', name: FACTION },
    { id: 'elf', system: 'tt', name: 'Elves' },
  ],
  players: [
    { id: 'p1', name: PLAYER },
    { id: 'p2', name: 'Bo' },
  ],
  events: [
    {
      id: 'e1',
      system: 'tt',
      name: 'Spring Clash',
      start: '2025-04-05',
      participants: 2,
      games: [1, 2, 3].map((round) => ({
        id: `g${round}`,
        round,
        sides: [side('p1', 'rlo', 12), side('p2', 'elf', 8)],
      })),
    },
    ...['sat-js', 'sat-ok'].map((id) => ({
      id,
      system: 'tt',
      name: id === 'sat-js' ? SATELLITE : 'Plain Open',
      start: '2099-05-01',
      status: 'scheduled',
      tier: 'satellite',
      registrationUrl: `https://example.org/${id}/register`,
    })),
  ],
};

const skipReason = browserSkipReason();

/** Opens a view of the dashboard and waits until no loading line is left. */
async function open(page: Page, origin: string, query: string): Promise<void> {
  await page.goto(`${origin}/?${query}`);
  await page.locator('main h1').waitFor();
  await settled(page);
}

/** Until no section of the page is still loading. */
async function settled(page: Page): Promise<void> {
  const loading = page.locator('main .status[role=status]:not(.empty), .reloading');
  await until(async () => (await loading.count()) === 0);
}

/**
 * Every text node of the page showing `name`, with whether the name alone is isolated: its
 * nearest `<bdi>` (or `unicode-bidi: isolate`) holds nothing but the name, or the text puts it
 * between FSI and PDI (U+2068, U+2069), the plain-text isolate.
 */
async function isolation(page: Page, name: string): Promise<Array<[string, boolean]>> {
  return page.evaluate((wanted) => {
    const out: Array<[string, boolean]> = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const at = text.indexOf(wanted);
      if (at < 0) continue;
      let isolated = text[at - 1] === '\u2068' && text[at + wanted.length] === '\u2069';
      for (let el = node.parentElement; el !== null && !isolated; el = el.parentElement) {
        const bidi = getComputedStyle(el).unicodeBidi;
        if (el.tagName === 'BDI' || bidi === 'isolate' || bidi === 'isolate-override') {
          isolated = el.textContent === wanted;
          break;
        }
      }
      out.push([node.parentElement?.tagName ?? '', isolated]);
    }
    return out;
  }, name);
}

describe(
  `hostile names and links in the browser (${TEST_BACKEND})`,
  { skip: skipReason ?? false },
  () => {
    let browser: Browser;
    let test: TestApp;
    let origin: string;

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const store = await openTestStore();
      const report = await importCanonical(store, DOCUMENT);
      assert.deepEqual(report.rejects, []);
      // As a store written before imports checked links would hold it.
      await store.db
        .updateTable('events')
        .set({ registration_url: ' JaVaScRiPt:alert(26)' })
        .where('id', '=', 'sat-js')
        .execute();
      const port = await freePort();
      test = await buildTestApp({ store, env: { MUSTER_PORT: String(port) } });
      await test.app.listen({ host: '127.0.0.1', port });
      origin = `http://127.0.0.1:${port}`;
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await test?.close();
      await test?.store.close();
    });

    it('renders no javascript: registration link, and the https one as a link', async () => {
      const { page, errors } = await watchedPage(browser, origin);
      await open(page, origin, 'view=satellites&system=tt');
      await page.getByRole('link', { name: 'register' }).first().waitFor();
      const hrefs = await page
        .locator('a[href]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      assert.deepEqual(
        hrefs.filter((h) => /^\s*(?:javascript|vbscript|data):/i.test(h)),
        [],
      );
      const registers = await page
        .getByRole('link', { name: 'register' })
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.deepEqual(registers, ['https://example.org/sat-ok/register']);
      assert.deepEqual(await isolation(page, SATELLITE), [['BDI', true]]);
      await screenshot(page, { path: join(ARTIFACTS, 'hostile-satellites.png'), fullPage: true });
      assert.deepEqual(errors, []);
    });

    it("isolates a faction's name holding U+202E and keeps bidi controls out of the title", async () => {
      const { page, errors } = await watchedPage(browser, origin);
      await open(page, origin, 'view=faction&faction=rlo&system=tt');
      assert.equal(await page.locator('main h1').innerText(), FACTION);
      const title = await page.title();
      assert.doesNotMatch(title, BIDI_CONTROL);
      assert.equal(title, `Orcs sbolG dna · Muster`);
      const shown = await isolation(page, FACTION);
      assert.ok(shown.length > 0, 'the name is shown');
      // The API's warning that one player plays its games names it inside a sentence.
      assert.ok(
        shown.some(([tag]) => tag === 'LI'),
        JSON.stringify(shown),
      );
      assert.deepEqual(
        shown.filter(([, isolated]) => !isolated),
        [],
      );
      await screenshot(page, { path: join(ARTIFACTS, 'hostile-faction.png'), fullPage: true });
      assert.deepEqual(errors, []);
    });

    it("isolates a player's name in the rankings and on their page, and titles it plainly", async () => {
      const { page, errors } = await watchedPage(browser, origin);
      await open(page, origin, 'view=rankings&system=tt&method=elo');
      await page.locator('a.player-name').first().waitFor();
      assert.deepEqual(await isolation(page, PLAYER), [['BDI', true]]);
      await page.locator('a.player-name', { hasText: 'Ada' }).click();
      await page.locator('main h1', { hasText: 'Ada' }).waitFor();
      await page.locator('main .status[role=status]:not(.empty)').waitFor({ state: 'detached' });
      assert.doesNotMatch(await page.title(), BIDI_CONTROL);
      const shown = await isolation(page, PLAYER);
      assert.ok(shown.length > 0);
      assert.deepEqual(
        shown.filter(([, isolated]) => !isolated),
        [],
      );
      await screenshot(page, { path: join(ARTIFACTS, 'hostile-player.png'), fullPage: true });
      assert.deepEqual(errors, []);
    });
  },
);
