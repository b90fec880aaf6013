/**
 * The Lists page's Kind filter on list configuration (docs/statistics.md#item-use-stats) in a
 * real browser at 1440x900 and 390x844, over the roster event of test/support/roster-event.ts
 * (lists imported from rosters with battle formations, tactic cards, lores and a Kill Team list
 * configuration): choosing "list configuration" shows exactly the configuration choices the API
 * answers, in its order, each of that kind, and a shared URL opens the same. Screenshots go to
 * test-artifacts/web/ (git-ignored).
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
import { importRosterEvent } from '../support/roster-event.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';

const skipReason = browserSkipReason();

/** Waits until the view's numbers are in (no status line left). */
async function settle(page: Page): Promise<void> {
  await page.locator('main h1').waitFor();
  await page.locator('main .status[role=status]:not(.empty)').waitFor({ state: 'detached' });
  await page.locator('.reloading').waitFor({ state: 'detached' });
}

describe(
  `the Lists page's Kind filter on list configuration (${TEST_BACKEND})`,
  {
    skip: skipReason ?? false,
  },
  () => {
    let browser: Browser;
    let test: TestApp;
    let origin: string;
    let expected: string[];

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const store = await openTestStore();
      await importRosterEvent(store);
      const port = await freePort();
      test = await buildTestApp({ store, env: { MUSTER_PORT: String(port) } });
      await test.app.listen({ host: '127.0.0.1', port });
      origin = `http://127.0.0.1:${port}`;
      const res = await test.app.inject({
        method: 'POST',
        url: '/api/item-use-stats',
        payload: { system: 'rl', kinds: ['configuration'], pageSize: 25 },
        headers: { origin },
      });
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      const items = res.json().data.items as Array<{
        item: { name: string; kind: string; category: string };
      }>;
      assert.ok(items.every((i) => i.item.kind === 'configuration'));
      // Each row shows the choice's name over its type ("Vanguard Wing", "Battle Formation").
      expected = items.map((i) => `${i.item.name}\n${i.item.category}`);
      assert.deepEqual(items.map((i) => i.item.name).sort(), [
        'Allow Legends',
        'Arena Mission',
        'Lore of the Storm',
        'Master the Paths',
        'Vanguard Wing',
        'Wrath of the Storm',
      ]);
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await test?.close();
      await test?.store.close();
    });

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`shows the configuration choices, and only them, when Kind is list configuration (${size})`, async () => {
        const watched = await watchedPage(browser, origin);
        const p = watched.page;
        await p.setViewportSize(SIZES[size]);
        await p.goto(`${origin}/?view=lists&system=rl`);
        await settle(p);
        // The Kind filter: the one select that offers "list configuration".
        const kind = p.locator('select:has(option[value=configuration])');
        await kind.selectOption('configuration');
        await p.waitForURL(/kind=configuration/);
        await settle(p);
        const names = async () => p.locator('main tbody tr th').allInnerTexts();
        await p.waitForFunction(
          (n) => document.querySelectorAll('main tbody tr').length === n,
          expected.length,
        );
        assert.deepEqual(
          (await names()).map((n) => n.trim()),
          expected,
        );
        await screenshot(p, { path: join(ARTIFACTS, `lists-configuration-${size}.png`) });
        // A shared URL opens the same filter.
        await p.goto(`${origin}/?view=lists&system=rl&kind=configuration`);
        await settle(p);
        assert.equal(await kind.inputValue(), 'configuration');
        assert.deepEqual(
          (await names()).map((n) => n.trim()),
          expected,
        );
        assert.deepEqual(watched.errors, []);
        await p.close();
      });
    }
  },
);
