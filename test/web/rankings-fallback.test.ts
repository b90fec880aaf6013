/**
 * Rankings on the committed T9A slice, where every Glicko-2 player is provisional
 * (docs/ratings.md#conservative-order-and-provisional-players), in a real browser at 1440x900 and
 * 390x844: the default page lists them, each badged, with the reason in one line, and a faction
 * page's best players follow the same rule. Screenshots go to test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ARTIFACTS,
  browserSkipReason,
  launchBrowser,
  screenshot,
  serveTestApp,
  SIZES,
  watchedPage,
} from '../support/browser.ts';
import type { Browser, Size } from '../support/browser.ts';
import { t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const skip = browserSkipReason() ?? (t9aSeedPaths() === null ? 'no T9A data' : null);

describe(`rankings with nobody established (${TEST_BACKEND})`, { skip: skip ?? false }, () => {
  let browser: Browser;
  let test: TestApp;
  let origin: string;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    ({ test, origin } = await serveTestApp({ seed: 't9a', shared: true }));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await test?.close();
  });

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`shows the provisional players, badged, with the reason, by default (${size})`, async () => {
      const watched = await watchedPage(browser, origin);
      const p = watched.page;
      await p.setViewportSize(SIZES[size]);
      await p.goto(`${origin}/?view=rankings`);
      await p.locator('main h1').waitFor();
      const note = p.getByTestId('provisional-fallback');
      await note.waitFor();
      assert.match(
        await note.innerText(),
        /^Every player here is provisional \(rating deviation above 110; the lowest is \d+\)/,
      );
      const rows = p.locator('main tbody tr');
      assert.ok((await rows.count()) > 0);
      assert.equal(
        await rows.count(),
        await p.locator('main tbody tr .badge', { hasText: 'provisional' }).count(),
      );
      assert.equal(await p.locator('main .status.empty').count(), 0);
      assert.equal(await p.getByLabel('Include provisional players').isChecked(), false);
      await screenshot(p, { path: join(ARTIFACTS, `rankings-fallback-t9a-${size}.png`) });

      // A faction page's best players: the same rule, the same line.
      const faction = await p.locator('main tbody tr a.faction-name').first();
      const href = (await faction.getAttribute('href')) ?? '';
      await p.goto(new URL(href, origin).toString());
      const section = p.locator('section[aria-labelledby=players-h]');
      await section.getByTestId('provisional-fallback').waitFor();
      assert.equal(
        await section.locator('tbody tr').count(),
        await section.locator('tbody tr .badge', { hasText: 'provisional' }).count(),
      );
      await section.scrollIntoViewIfNeeded();
      await screenshot(section, { path: join(ARTIFACTS, `best-players-t9a-${size}.png`) });
      const matchups = p.locator('section[aria-labelledby=matchups-h]');
      await matchups.getByTestId('shrinkage-note').waitFor();
      await screenshot(matchups, { path: join(ARTIFACTS, `faction-matchups-t9a-${size}.png`) });
      assert.deepEqual(watched.errors, []);
      await p.close();
    });
  }
});
