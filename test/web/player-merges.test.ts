/**
 * Alike players and merges on the dashboard (docs/operations.md#player-merges) in a real browser
 * at 1440x900 and 390x844, on a hand-made store: the Alike players page lists a pair with its
 * evidence; once merged, the kept player's page names the id it merges and the other id's page
 * says whom it is merged into. Screenshots go to test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { main } from '../../src/cli/main.ts';
import {
  ARTIFACTS,
  screenshot,
  browserSkipReason,
  freePort,
  launchBrowser,
  SIZES,
  until,
  watchedPage,
} from '../support/browser.ts';
import type { Browser, Size } from '../support/browser.ts';
import { mergeDocument } from '../support/merge-document.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { openSharedTestStore, TEST_BACKEND } from '../support/test-store.ts';

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

describe(
  `alike players and merges on the dashboard (${TEST_BACKEND})`,
  { skip: skipReason ?? false },
  () => {
    let browser: Browser;
    let test: TestApp;
    let cleanup: () => void = () => {};
    let origin = '';

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const port = await freePort();
      const shared = await openSharedTestStore();
      cleanup = shared.cleanup;
      test = await buildTestApp({
        store: shared.store,
        seed: mergeDocument('p-jose2'),
        env: { MUSTER_PORT: String(port) },
      });
      await test.app.listen({ host: '127.0.0.1', port });
      origin = `http://127.0.0.1:${port}`;
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await test?.close();
      await test?.store.close();
      cleanup();
    });

    const shot = (page: Page, name: string, size: Size) =>
      screenshot(page, {
        path: join(ARTIFACTS, `merges-${name}-${size}-${TEST_BACKEND}.png`),
        fullPage: true,
      });

    /** The Alike players page lists the pair with its evidence (before the merge). */
    async function listsThePair(): Promise<void> {
      for (const size of Object.keys(SIZES) as Size[]) {
        const { page, errors } = await watchedPage(browser, origin);
        await page.setViewportSize(SIZES[size]);
        await page.goto(`${origin}/?view=alike`);
        await settled(page);
        const rows = page.locator('main table tbody tr');
        assert.equal(await rows.count(), 1, 'one pair at the default score');
        const text = await rows.first().innerText();
        assert.match(text, /José García/);
        assert.match(text, /jose garcia/);
        assert.match(text, /case, accents or punctuation/);
        await fits(page, 'alike page');
        await shot(page, 'alike', size);
        assert.deepEqual(errors, []);
        await page.close();
      }
    }

    it("lists the pair, then names the merged id on the kept player's page and the kept player on the other's", async () => {
      await listsThePair();
      const merged = await main(['players', 'merge', 'p-jose', 'p-jose2', '--note', 'accents'], {
        out: () => undefined,
        err: (line) => assert.fail(line),
        env: { MUSTER_DATABASE_URL: test.store.url },
      });
      assert.equal(merged, 0);
      await test.snapshots.refresh();
      for (const size of Object.keys(SIZES) as Size[]) {
        const { page, errors } = await watchedPage(browser, origin);
        await page.setViewportSize(SIZES[size]);
        await page.goto(`${origin}/?view=player&player=p-jose`);
        await settled(page);
        assert.match(await page.getByTestId('merged-ids').innerText(), /jose garcia \(p-jose2\)/);
        await fits(page, 'kept player page');
        await shot(page, 'kept', size);
        await page.goto(`${origin}/?view=player&player=p-jose2`);
        await settled(page);
        const note = page.getByTestId('merged-into');
        assert.match(await note.innerText(), /p-jose2 is merged into José García/);
        assert.equal(await note.locator('a').getAttribute('href'), '?view=player&player=p-jose');
        await fits(page, 'merged player page');
        await shot(page, 'merged', size);
        assert.deepEqual(errors, []);
        await page.close();
      }
    });
  },
);
