/**
 * The Team pairing page in a real browser at 1440x900 and 390x844 on the demo data with one of
 * its team events: two teams picked from the event, their matrix as a heatmap, one cell
 * overwritten (marked, then reset), and the draft walked a step. Screenshots go to
 * test-artifacts/web/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
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
import { buildTestApp, demoSlice } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const skipReason = browserSkipReason();

/** The demo slice with the demo's last completed team event of five-player teams added. */
function withTeamEvent() {
  const demo = generateDemo({ today: new Date().toISOString().slice(0, 10) });
  const teamEvent = (demo.events ?? [])
    .filter((e) => e.status === 'completed' && e.format === 'teams')
    .filter((e) => (e.entries ?? []).filter((x) => x.team === e.entries?.[0]?.team).length === 5)
    .at(-1);
  assert.ok(teamEvent !== undefined, 'the demo has a completed team event of fives');
  const slice = demoSlice();
  return { seed: { ...slice, events: [...(slice.events ?? []), teamEvent] }, teamEvent };
}

describe(`the Team pairing page (${TEST_BACKEND})`, { skip: skipReason ?? false }, () => {
  let browser: Browser;
  let test: TestApp;
  let origin: string;
  const { seed, teamEvent } = withTeamEvent();

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await freePort();
    test = await buildTestApp({ seed, env: { MUSTER_PORT: String(port) } });
    await test.app.listen({ host: '127.0.0.1', port });
    origin = `http://127.0.0.1:${port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await test?.close();
  });

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`pairs two teams of an event, overwrites a cell and walks the draft (${size})`, async () => {
      const page = await watchedPage(browser, origin);
      const p = page.page;
      await p.setViewportSize(SIZES[size]);
      await p.goto(`${origin}/?view=pairing`);
      await p.getByTestId('pairing-event').selectOption(teamEvent!.id);
      await p.getByTestId('pairing-show').click();
      const matrix = p.getByTestId('pairing-matrix');
      await matrix.waitFor();
      assert.equal(await matrix.locator('tbody tr').count(), 5);
      assert.equal(await matrix.locator('tbody td').count(), 25);
      await p.getByTestId('draft-value').waitFor();
      const before = await p.getByTestId('draft-value').innerText();
      // Overwrite the first cell with a sure win: the cell is marked and the value moves.
      await matrix.locator('tbody td button.heat').first().click();
      await matrix.locator('input.cell-edit').fill('20');
      await matrix.locator('input.cell-edit').press('Enter');
      assert.equal(await matrix.locator('td.overwritten').count(), 1);
      await p.waitForFunction(
        (old) => document.querySelector('[data-testid="draft-value"]')?.textContent !== old,
        before,
      );
      const mixA = await p.getByTestId('mix-a').locator('li').allInnerTexts();
      assert.ok(mixA.length > 0 && mixA.every((line) => /\d+%$/.test(line)), mixA.join('|'));
      assert.match(await p.getByTestId('draft-step').innerText(), /Step 1: Both teams reveal/);
      await p.getByTestId('draft-next').click();
      await p.getByText('Each team offers two attackers').waitFor();
      await matrix.evaluate((el) => el.scrollIntoView());
      await screenshot(p, { path: join(ARTIFACTS, `team-pairing-${size}.png`), fullPage: true });
      if (size === 'phone') {
        const [scroll, width] = await p.evaluate<[number, number]>(
          '[document.documentElement.scrollWidth, window.innerWidth]',
        );
        assert.ok(scroll <= width, `the page is ${scroll}px wide on a ${width}px screen`);
      }
      // Reset the overwritten cell: the mark goes.
      await matrix.locator('button.cell-reset').click();
      assert.equal(await matrix.locator('td.overwritten').count(), 0);
      assert.deepEqual(page.errors, []);
      await p.close();
    });
  }

  it('fills a typed team from the player search', async () => {
    const page = await watchedPage(browser, origin);
    const p = page.page;
    await p.setViewportSize(SIZES.phone);
    await p.goto(`${origin}/?view=pairing`);
    await p.getByRole('tab', { name: 'Type two teams' }).click();
    const member = teamEvent!.entries![0];
    const name = seed.players?.find((x) => x.id === member.player)?.name ?? member.player;
    await p.getByLabel('Find a player (name or id)').fill(name.split(' ')[0]);
    await p.getByTestId('player-search').locator('button').first().click();
    const first = p.getByLabel('Team A player 1 id');
    assert.notEqual(await first.inputValue(), '');
    await screenshot(p, { path: join(ARTIFACTS, 'team-pairing-typed-phone.png'), fullPage: true });
    const [scroll, width] = await p.evaluate<[number, number]>(
      '[document.documentElement.scrollWidth, window.innerWidth]',
    );
    assert.ok(scroll <= width, `the page is ${scroll}px wide on a ${width}px screen`);
    assert.deepEqual(page.errors, []);
    await p.close();
  });
});
