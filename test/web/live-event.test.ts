/**
 * A running event's page follows the live stream (docs/http-api.md#live) in a real browser at
 * 1440x900 and 390x844: with its last round paired but not played, the page says the event is
 * running, lists the round's tables and shows the standings as the order so far ("Now"), with no
 * places; once the results are imported and served, the same page, not reloaded, shows them and
 * the event as finished, with its places. Screenshots go to test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
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
import { lastRound, unplayed } from '../support/round-in-progress.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const skip = browserSkipReason();

describe(
  `a running event's page follows the live stream (${TEST_BACKEND})`,
  { skip: skip ?? false },
  () => {
    let browser: Browser;
    let test: TestApp;
    let origin: string;
    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      ({ test, origin } = await serveTestApp({ seed: 'demo-slice' }));
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await test?.close();
    });

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`shows the results of the round in progress as they land, without a reload (${size})`, async () => {
        const paired = lastRound(unplayed);
        assert.deepEqual(
          (await importCanonical(test.store, paired.doc, { source: `paired ${size}` })).rejects,
          [],
        );
        await test.snapshots.refresh();
        const { page, errors } = await watchedPage(browser, origin);
        await page.setViewportSize(SIZES[size]);
        await page.goto(`${origin}/?view=event&event=${encodeURIComponent(paired.event.id)}`);
        const facts = page.getByTestId('event-facts');
        await facts.waitFor();
        await until(async () => (await facts.textContent())!.includes('running'));
        const rounds = page.getByTestId('rounds');
        assert.match((await rounds.textContent())!, /in progress: \d+ to play/);
        // Every table still to play shows its forecast from the joint model, as the API gives it.
        const forecasts = page.getByTestId('table-forecast');
        const toPlay = paired.event.games!.filter((g) => g.sides[0].result === undefined).length;
        await until(async () => (await forecasts.count()) === toPlay);
        const g = paired.event.games!.find((x) => x.sides[0].result === undefined)!;
        const answer = await test.app.inject({
          method: 'POST',
          url: '/api/forecast',
          headers: { origin },
          payload: {
            player1: g.sides[0].player,
            faction1: g.sides[0].faction,
            player2: g.sides[1].player,
            faction2: g.sides[1].faction,
          },
        });
        assert.equal(answer.statusCode, 200, answer.body);
        const win = (answer.json() as { data: { probabilities: { win: number } } }).data
          .probabilities.win;
        const texts = await forecasts.allTextContents();
        assert.ok(
          texts.some((t) => t.includes(`win ${(win * 100).toFixed(0)} %`)),
          `no table forecast says win ${(win * 100).toFixed(0)} %: ${texts.join(' | ')}`,
        );
        for (const t of texts)
          assert.match(
            t,
            /\d+ % of the result \(\d+ %–\s*\d+ %\), win \d+ % · draw\s+\d+ % · loss \d+ %/,
          );
        // Nobody has gone through an event unbeaten while a round is still to play, and nobody
        // has won or placed: the standings are the order so far (docs/statistics.md#running-events).
        assert.equal(await page.locator('main .badge', { hasText: 'undefeated' }).count(), 0);
        const note = page.getByTestId('placement-note');
        assert.match((await note.textContent())!, /^Running: .*no winner and no places until/);
        const headers = page.getByTestId('standings').locator('th');
        assert.ok((await headers.allTextContents()).some((h) => h.includes('Now')));
        assert.ok(!(await headers.allTextContents()).some((h) => h.includes('Place')));
        await screenshot(page, {
          path: join(ARTIFACTS, `live-event-running-${size}-${TEST_BACKEND}.png`),
          fullPage: true,
        });
        // A mark on this page's window: a reload would drop it.
        await page.evaluate('window.__sameLoad = true');
        const complete = lastRound((g) => g);
        assert.deepEqual(
          (await importCanonical(test.store, complete.doc, { source: `played ${size}` })).rejects,
          [],
        );
        assert.equal(await test.snapshots.refresh(), true);
        await until(async () => !(await facts.textContent())!.includes('running'));
        assert.doesNotMatch((await rounds.textContent())!, /to play/);
        assert.equal(await forecasts.count(), 0, 'a played game shows its result, not a forecast');
        await until(async () => !(await note.textContent())!.startsWith('Running'));
        assert.ok((await headers.allTextContents()).some((h) => h.includes('Place')));
        assert.equal(
          await page.evaluate('window.__sameLoad === true'),
          true,
          'the page was not reloaded',
        );
        await screenshot(page, {
          path: join(ARTIFACTS, `live-event-finished-${size}-${TEST_BACKEND}.png`),
          fullPage: true,
        });
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  },
);
