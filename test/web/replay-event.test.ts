/**
 * The live event page while `muster replay` plays an event (docs/operations.md#replaying-an-event,
 * docs/event-projection.md): the real CLI, spawned against the test store, plays a finished event
 * round by round; the page, opened once and never reloaded, shows it running with its projected
 * finish (a bar per player), then a round's results as they land, then the event finished with
 * no projection. Phone first (390x844), then 1440x900 on the same page; screenshots go to
 * test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Event } from '../../src/domain/model.ts';
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
import type { Browser } from '../support/browser.ts';
import { replayDocument, writeReplayFile } from '../support/replay-event-file.ts';
import type { TestApp } from '../support/test-app.ts';
import { openSharedTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const skip = browserSkipReason();
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const TODAY = new Date().toISOString().slice(0, 10);

/** The demo slice's event played again today under new ids, so the seeded store lacks it. */
const asToday = (e: Event): Event => ({
  ...e,
  id: `replayed-${e.id}`,
  name: `${e.name} (replayed)`,
  start: TODAY,
  end: TODAY,
  games: e.games!.map((g) => ({ ...g, id: `replayed-${g.id}` })),
});

describe(
  `the event page follows muster replay as it plays (${TEST_BACKEND})`,
  { skip: skip ?? false },
  () => {
    let browser: Browser;
    let test: TestApp;
    let store: TestStore;
    let cleanup: () => void;
    let origin: string;
    const dir = mkdtempSync(join(tmpdir(), 'muster-replay-web-'));
    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      ({ store, cleanup } = await openSharedTestStore());
      ({ test, origin } = await serveTestApp({ seed: 'demo-slice', store }));
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await test?.close();
      await store?.close();
      cleanup?.();
      rmSync(dir, { recursive: true, force: true });
    });

    it('shows the projected finish and each round as it lands, then the event finished, without a reload', async () => {
      const { doc, event } = replayDocument(asToday);
      const file = writeReplayFile(join(dir, 'event.json'), doc);
      const rounds = Math.max(...event.games!.map((g) => g.round!));
      // The served snapshot follows the store as `muster serve` does, polling its data version.
      let serving = true;
      const polling = (async () => {
        while (serving) {
          await test.snapshots.refresh();
          await sleep(150);
        }
      })();
      const child = spawn(
        process.execPath,
        [BIN, 'replay', file, '--every', '4s', '--db', store.url],
        {
          env: { ...process.env, MUSTER_LOG_LEVEL: 'silent' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      try {
        const { page, errors } = await watchedPage(browser, origin);
        await page.setViewportSize(SIZES.phone);
        await until(async () => out.includes('round 1 paired'), 60_000);
        // Served once the poll has swapped in the snapshot that holds it.
        await until(async () => {
          const answer = await test.app.inject({
            method: 'POST',
            url: '/api/events',
            headers: { origin },
            payload: { event: event.id, pageSize: 1 },
          });
          return answer.statusCode === 200;
        });
        // The events list marks it running.
        await page.goto(`${origin}/?view=event`);
        const listed = page.getByTestId('event-list').locator('li', { hasText: event.name });
        await listed.getByTestId('event-running').waitFor();
        await page.goto(`${origin}/?view=event&event=${encodeURIComponent(event.id)}`);
        await page.evaluate('window.__sameLoad = true');
        const facts = page.getByTestId('event-facts');
        await until(async () => (await facts.textContent())!.includes('running'));
        const shownRounds = page.locator('[data-testid=rounds] details.round');
        // A bar per player once a round is played: first, and the top 8 of a field above 8.
        const rows = page.getByTestId('projection-row');
        await until(async () => (await rows.count()) > 0, 30_000);
        const players = new Set(event.entries!.map((e) => e.player)).size;
        assert.equal(await rows.count(), players);
        const labels = await rows
          .first()
          .locator('.chance')
          .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')));
        assert.deepEqual(
          labels.map((l) => l!.replace(/\d+ %/, 'N %')),
          players > 8 ? ['1st: N %', 'top 8: N %'] : ['1st: N %'],
        );
        assert.match(
          (await page.getByTestId('projection-derivation').textContent())!,
          /From the standings after round \d+: the \d+ rounds? left simulated 10,000 times, the round in progress at its announced tables and the rounds after it Swiss-paired .* joint model fitted to the games before the event/,
        );
        const firsts = await rows.locator('.chance-text').allTextContents();
        const firstSum = firsts
          .filter((t) => t.startsWith('1st'))
          .reduce((s, t) => s + Number(/(\d+) %/.exec(t)![1]), 0);
        assert.ok(Math.abs(firstSum - 100) <= players / 2, `chances of first sum to ${firstSum} %`);
        // The page changes as the next round lands: one more round shown, not reloaded.
        const seen = await shownRounds.count();
        assert.ok(seen < rounds || !(await facts.textContent())!.includes('running'));
        await screenshot(page.getByTestId('projected-finish'), {
          path: join(ARTIFACTS, `replay-event-projection-phone-${TEST_BACKEND}.png`),
        });
        await until(async () => (await shownRounds.count()) > seen, 30_000);
        await page.setViewportSize(SIZES.desktop);
        await screenshot(page, {
          path: join(ARTIFACTS, `replay-event-running-desktop-${TEST_BACKEND}.png`),
          fullPage: false,
        });
        await until(async () => !(await facts.textContent())!.includes('running'), 90_000);
        assert.equal(await shownRounds.count(), rounds);
        assert.doesNotMatch((await page.getByTestId('rounds').textContent())!, /to play/);
        await until(async () => (await page.getByTestId('projected-finish').count()) === 0);
        assert.equal(await page.evaluate('window.__sameLoad === true'), true, 'not reloaded');
        await page.evaluate('window.scrollTo(0, 0)');
        await screenshot(page, {
          path: join(ARTIFACTS, `replay-event-finished-desktop-${TEST_BACKEND}.png`),
          fullPage: false,
        });
        assert.equal(await exited, 0, out);
        assert.match(out, new RegExp(`round ${rounds} played: the event is finished`));
        assert.deepEqual(errors, []);
        await page.close();
      } finally {
        child.kill('SIGTERM');
        serving = false;
        await polling;
      }
    });
  },
);
