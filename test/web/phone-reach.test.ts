/**
 * A phone reaches every column (docs/operations.md#web-client), in a real browser at 390x844 and
 * 320x640 over the demo slice and the committed T9A slice: on every page of the menu and on an
 * event, player and faction page, no table heading is left out, a table wider than the screen
 * says how many columns lie beyond its edge and its cue brings the last one in (the row-header
 * column staying in view), the filter bar's pop-overs open inside the screen, the page never
 * scrolls sideways, and an event's games are folded by round below its standings, so the page's
 * height is bounded by its rounds. Screenshots go to test-artifacts/web/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  ARTIFACTS,
  browserSkipReason,
  launchBrowser,
  screenshot,
  serveTestApp,
  until,
  watchedPage,
} from '../support/browser.ts';
import type { Browser } from '../support/browser.ts';
import { t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Seed = 'demo-slice' | 't9a';

const PHONES = {
  390: { width: 390, height: 844 },
  320: { width: 320, height: 640 },
} as const;

const MENU = ['meta', 'lists', 'scenarios', 'rankings', 'events', 'strength', 'about'] as const;

interface Served {
  test: TestApp;
  origin: string;
}

/** The API's answer to a POST, asked from the page's own origin as the dashboard asks it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(s: Served, url: string, body: Record<string, unknown>): Promise<any> {
  const res = await s.test.app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { origin: s.origin },
  });
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  return res.json();
}

async function open(p: Page, origin: string, query: string): Promise<void> {
  await p.goto(`${origin}/?${query}`);
  await p.locator('main h1, main table, main .status').first().waitFor();
  await until(
    async () =>
      (await p.locator('main .status[role=status]:not(.empty), .reloading').count()) === 0,
  );
}

/** Nothing wider than the screen: the page scrolls down, never sideways. */
async function noSidewaysScroll(p: Page, where: string): Promise<void> {
  const [scroll, width] = await p.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, window.innerWidth]',
  );
  assert.ok(scroll <= width, `${where}: the page is ${scroll}px wide on a ${width}px screen`);
}

const box = (l: Locator) =>
  l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, width: r.width };
  });

/**
 * Every heading of a shown table has a width, and where the table is wider than its frame the
 * cue says so and brings each column in, the row header staying at the frame's left edge.
 */
async function everyColumnReachable(p: Page, where: string): Promise<number> {
  const tables = p.locator('main .table-scroll');
  let swiped = 0;
  for (let i = 0; i < (await tables.count()); i++) {
    const table = tables.nth(i);
    if (!(await table.isVisible())) continue;
    const frame = table.locator('.table-wrap');
    const name = `${where}, table ${i + 1} (${await frame.getAttribute('aria-label')})`;
    const heads = frame.locator('thead tr:first-child > th');
    const widths = await heads.evaluateAll((ths) =>
      ths.map((th) => [th.textContent ?? '', th.getBoundingClientRect().width] as const),
    );
    const hidden = widths.filter(([, w]) => w === 0).map(([text]) => text);
    assert.deepEqual(hidden, [], `${name}: headings left out`);
    const wider = await frame.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    const cue = table.getByTestId('scroll-cue');
    if (!wider) {
      assert.equal(await cue.count(), 0, `${name}: a cue on a table that fits`);
      continue;
    }
    swiped += 1;
    assert.ok(await cue.isVisible(), `${name}: wider than the screen and no cue`);
    const more = cue.locator('button', { hasText: 'more' });
    const scrolled = () => frame.evaluate((el) => el.scrollLeft);
    for (let n = 0; n < 30 && (await more.count()) > 0; n++) {
      const at = await scrolled();
      await more.click();
      await until(async () => (await scrolled()) > at);
      // The scroll event, then the cue's new counts, come in the next frames.
      await p.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
    }
    assert.equal(await more.count(), 0, `${name}: the cue never reached the last column`);
    const edge = await box(frame);
    const last = await box(heads.last());
    assert.ok(last.right <= edge.right + 1, `${name}: the last column ends at ${last.right}`);
    const rowHead = frame.locator('thead th.row-head');
    if ((await rowHead.count()) > 0) {
      const stuck = await box(rowHead);
      // In view: at the frame's left edge, or where it stands when the table scrolls less
      // than the columns before it are wide.
      assert.ok(
        stuck.left >= edge.left - 1 && stuck.right <= edge.right + 1,
        `${name}: the row header scrolled away (${stuck.left} against ${edge.left})`,
      );
    }
    // And back: the cue now counts the columns before the edge.
    await cue.locator('button', { hasText: '←' }).waitFor();
  }
  return swiped;
}

/** Each of the bar's pop-overs, opened, lies inside the screen. */
async function popOversInside(p: Page, where: string): Promise<string[]> {
  const fold = p.locator('details.filter-fold');
  if ((await fold.count()) === 0) return [];
  if ((await fold.getAttribute('open')) === null) await fold.locator('> summary').click();
  const lists = p.locator('details.checklist');
  const names: string[] = [];
  const width = await p.evaluate(() => document.documentElement.clientWidth);
  for (let i = 0; i < (await lists.count()); i++) {
    const list = lists.nth(i);
    const summary = list.locator('summary');
    names.push((await summary.innerText()).split(':')[0]!);
    await summary.click();
    const pop = await box(list.locator('fieldset'));
    assert.ok(
      pop.left >= 0 && pop.right <= width,
      `${where}: ${names.at(-1)} opens at ${pop.left}..${pop.right} on a ${width}px screen`,
    );
    await noSidewaysScroll(p, `${where} with ${names.at(-1)} open`);
    await summary.click();
  }
  return names;
}

const t9aPaths = t9aSeedPaths();
const skip = browserSkipReason();

describe(`a phone reaches every column (${TEST_BACKEND})`, { skip: skip ?? false }, () => {
  let browser: Browser;
  const served = new Map<Seed, Served>();

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    served.set('demo-slice', await serveTestApp({ seed: 'demo-slice', shared: true }));
    if (t9aPaths !== null) served.set('t9a', await serveTestApp({ seed: 't9a', shared: true }));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const s of served.values()) await s.test.close();
  });

  for (const seed of ['demo-slice', 't9a'] as const) {
    for (const width of [390, 320] as const) {
      it(`leaves no column unreachable and no pop-over outside the screen (${seed}, ${width})`, async (t) => {
        const s = served.get(seed);
        if (s === undefined) return t.skip('no T9A data (test/fixtures/t9a)');
        const watched = await watchedPage(browser, s.origin);
        const p = watched.page;
        await p.setViewportSize(PHONES[width]);
        const events = await api(s, '/api/events', { sort: 'entries', pageSize: 1 });
        const player = events.data.events[0].winners[0]?.player.id as string | undefined;
        const matchups = await api(s, '/api/army-matchup', {});
        const faction = matchups.data.factions[0].id as string;
        const pages: string[] = [
          ...MENU.map((v) => `view=${v}`),
          `view=faction&faction=${encodeURIComponent(faction)}`,
          ...(player ? [`view=player&player=${encodeURIComponent(player)}`] : []),
          // The slice has one tier and one rules version, so the bar offers them only while
          // one is chosen: the rightmost pop-overs of the bar.
          ...(seed === 'demo-slice' ? ['view=meta&tiers=standard&rules=2.2'] : []),
        ];
        let swiped = 0;
        const popOvers = new Set<string>();
        for (const query of pages) {
          await open(p, s.origin, query);
          const where = `${seed} ${width} ${query}`;
          await noSidewaysScroll(p, where);
          if (/^view=(meta|lists|events|scenarios|player)\b/.test(query))
            await screenshot(p, {
              path: join(ARTIFACTS, `phone-${/^view=(\w+)/.exec(query)![1]}-${seed}-${width}.png`),
              fullPage: query.startsWith('view=player'),
            });
          swiped += await everyColumnReachable(p, where);
          await noSidewaysScroll(p, `${where} after swiping`);
          for (const name of await popOversInside(p, where)) popOvers.add(name);
        }
        // The check has something to check: some table is wider than a phone.
        assert.ok(swiped > 0, `${seed} ${width}: no table needed a swipe`);
        // A filter with one choice is not offered (T9A's one tier), unless it is chosen.
        if (seed === 'demo-slice')
          assert.ok(popOvers.has('Tiers') && popOvers.has('Rules'), [...popOvers].join(', '));
        else assert.ok(!popOvers.has('Tiers'), [...popOvers].join(', '));
        assert.deepEqual(watched.errors, []);
        assert.deepEqual(watched.outside, []);
        await p.close();
      });

      it(`folds an event's games by round below its standings (${seed}, ${width})`, async (t) => {
        const s = served.get(seed);
        if (s === undefined) return t.skip('no T9A data (test/fixtures/t9a)');
        const list = await api(s, '/api/events', { pageSize: 200 });
        // The event with the most games, a team event where there is one: the tallest page.
        const biggest = [...(list.data.events as { id: string; games: number }[])].sort(
          (a, b) => b.games - a.games,
        )[0]!;
        const answer = await api(s, '/api/events', { event: biggest.id, pageSize: 1 });
        const rounds = answer.data.event.rounds as { games: unknown[] }[];
        const watched = await watchedPage(browser, s.origin);
        const p = watched.page;
        await p.setViewportSize(PHONES[width]);
        await open(p, s.origin, `view=event&event=${encodeURIComponent(biggest.id)}`);
        await p.getByTestId('standings').waitFor();
        const folds = p.locator('[data-testid=rounds] details.round');
        assert.equal(await folds.count(), rounds.length);
        assert.equal(await p.locator('[data-testid=rounds] details.round[open]').count(), 0);
        const standings = await p.getByTestId('standings').boundingBox();
        const block = await p.getByTestId('rounds').boundingBox();
        assert.ok(standings && block && standings.y < block.y, 'the standings come first');
        assert.ok(
          block.height <= rounds.length * 80,
          `${rounds.length} folded round(s) take ${block.height}px`,
        );
        // Every pairing is still there, a tap away: the first round opens to its games.
        const first = folds.first();
        assert.match(
          await first.locator('> summary').innerText(),
          new RegExp(`${rounds[0]!.games.length} games?`),
        );
        await noSidewaysScroll(p, `${seed} event ${biggest.id}`);
        const height = await p.evaluate(() => document.documentElement.scrollHeight);
        await screenshot(p, {
          path: join(ARTIFACTS, `phone-event-${seed}-${width}.png`),
          fullPage: height < 12_000,
        });
        await everyColumnReachable(p, `${seed} event ${biggest.id}`);
        await first.locator('> summary').click();
        assert.equal(
          await first
            .locator('.pairing')
            .evaluateAll((li) => li.filter((e) => e.clientHeight > 0).length),
          rounds[0]!.games.length,
        );
        assert.deepEqual(watched.errors, []);
        await p.close();
      });
    }
  }
});
