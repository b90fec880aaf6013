/**
 * Before/after in a real browser at 1440x900 and 390x844 (docs/statistics.md#emphasis): a
 * matchup that went from 0 % in 1 game to 100 % in 3 is listed, muted, never bold, while the
 * 60-v-60 change is bold. Screenshots go to test-artifacts/web/ (git-ignored).
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
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { thinChangeDocument } from '../support/thin-change-document.ts';

describe(`before/after emphasis (${TEST_BACKEND})`, { skip: browserSkipReason() ?? false }, () => {
  let browser: Browser;
  let test: TestApp;
  let origin: string;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    ({ test, origin } = await serveTestApp({ seed: thinChangeDocument() }));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await test?.close();
  });

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`lists a 1-game v 3-game change muted and never bold (${size})`, async () => {
      const watched = await watchedPage(browser, origin);
      const p = watched.page;
      await p.setViewportSize(SIZES[size]);
      await p.goto(`${origin}/?view=compare`);
      await p.locator('main h1').waitFor();
      const matchup = (name: string) =>
        p.locator('[data-testid=matchups] tbody tr, main table tbody tr', { hasText: name }).last();
      await matchup('Charlie vs Delta').waitFor();
      await p.locator('main .status[role=status]:not(.empty)').waitFor({ state: 'detached' });
      const thin = matchup('Charlie vs Delta');
      const thinClass = (await thin.getAttribute('class')) ?? '';
      assert.doesNotMatch(thinClass, /\bhighlight\b/);
      assert.match(thinClass, /\bmuted\b/);
      assert.match((await thin.innerText()).replace(/\s+/g, ' '), /\+100\.0 pp/);
      const delta = thin.locator('.delta');
      assert.equal(await delta.getAttribute('data-spans-zero'), 'false');
      assert.equal(await delta.getAttribute('data-muted'), 'true');
      assert.match((await delta.getAttribute('title')) ?? '', /fewer than 20 games/);
      const weight = await delta.locator('.delta-text').evaluate(
        (el) =>
          (
            globalThis as unknown as {
              getComputedStyle(e: unknown): { fontWeight: string };
            }
          ).getComputedStyle(el).fontWeight,
      );
      assert.equal(weight, '400');
      // The change from 60 games a window is bold, and leads the list.
      const real = matchup('Alpha vs Bravo');
      assert.match((await real.getAttribute('class')) ?? '', /\bhighlight\b/);
      assert.match(
        await p.getByTestId('compare-summary').innerText(),
        /at least 20 games in each window.*Benjamini–Hochberg/s,
      );
      await screenshot(p, {
        path: join(ARTIFACTS, `compare-emphasis-${size}.png`),
        fullPage: true,
      });
      assert.deepEqual(watched.errors, []);
      await p.close();
    });
  }
});
