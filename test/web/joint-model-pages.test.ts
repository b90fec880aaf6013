/**
 * What the dashboard shows of the joint model (docs/operations.md#web-client), in a real browser
 * at 1440x900 and 390x844 on the demo data and the committed T9A slice: Meta's "after pilot
 * skill" column (greyed where its interval spans 50 %, a badge where one player plays over a
 * quarter of a faction's games), a faction's performance against expectation per month, a
 * head-to-head forecast from the joint model naming it, and About the forecasts with its verdict
 * on the joint model against rating only. Screenshots go to test-artifacts/web/.
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
import { buildTestApp, t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Served {
  name: 'demo' | 't9a';
  test: TestApp;
  origin: string;
  /** faction-strength's rows, faction-stats' faction ids and one game's CSV row. */
  strength: Row[];
  metaFactions: string[];
  game: string[];
}

async function post(
  { test, origin }: Pick<Served, 'test' | 'origin'>,
  url: string,
  payload: object,
): Promise<Row> {
  const response = await test.app.inject({
    method: 'POST',
    url,
    headers: { origin },
    payload,
  });
  assert.equal(response.statusCode, 200, response.body.slice(0, 300));
  return response.json() as Row;
}

/** An app over the seed, listening; `opened` gets it first, so a failure still closes it. */
async function serve(seed: 'demo-slice' | 't9a', opened: TestApp[]): Promise<Served> {
  const port = await freePort();
  const test = await buildTestApp({ seed, env: { MUSTER_PORT: String(port) } });
  opened.push(test);
  if (seed === 'demo-slice') {
    await writeMeta(test.store.db, 'demo', 'generated for the browser test');
    await test.snapshots.reload();
  }
  await test.app.listen({ host: '127.0.0.1', port });
  const origin = `http://127.0.0.1:${port}`;
  const strength = (await post({ test, origin }, '/api/faction-strength', {})).data
    .factions as Row[];
  const stats = (await post({ test, origin }, '/api/faction-stats', { groupBy: 'quarter' })).data
    .factions as Row[];
  const csv = await test.app.inject({ method: 'GET', url: '/api/forecast-accuracy.csv' });
  const lines = csv.body.trimEnd().split('\r\n').slice(1);
  // A game between two players with known factions, late in the data.
  const game = lines
    .map((l) => l.split(','))
    .reverse()
    .find((r) => r[5] !== '' && r[6] !== '' && r[5] !== r[6])!;
  return {
    name: seed === 't9a' ? 't9a' : 'demo',
    test,
    origin,
    strength,
    metaFactions: stats.map((r) => r.faction.id as string),
    game,
  };
}

async function settled(page: Page): Promise<void> {
  await page.locator('main h1').waitFor();
  const busy = page.locator('main .status[role=status]:not(.empty), .reloading');
  await until(async () => (await busy.count()) === 0, 60_000);
}

async function fits(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - window.innerWidth',
  );
  assert.ok(overflow <= 1, `${what} is ${overflow}px wider than the screen`);
}

async function shot(page: Page, served: Served, what: string, size: Size): Promise<void> {
  await screenshot(page, {
    path: join(ARTIFACTS, `${served.name}-${what}-${size}-${TEST_BACKEND}.png`),
    fullPage: true,
  });
}

/** Meta: the column in every row, greyed exactly where the interval spans ½, the badges. */
async function checkMeta(page: Page, served: Served, size: Size): Promise<void> {
  // All data, as the figures it is checked against (Meta opens on the current rules version).
  await page.goto(`${served.origin}/?window=all`);
  await settled(page);
  const table = page.locator('main table').first();
  await until(async () => (await table.locator('td:has-text("…")').count()) === 0, 60_000);
  const cells = table.getByTestId('strength-cell');
  assert.equal(await cells.count(), served.metaFactions.length, 'a cell per faction');
  const shown = new Set(served.metaFactions);
  const rows = served.strength.filter((r) => shown.has(r.faction.id));
  const spanning = rows.filter(
    (r) => r.strength && r.strength.low <= 0.5 && r.strength.high >= 0.5,
  );
  assert.equal(await table.locator('.spans').count(), spanning.length, 'greyed cells');
  const dominated = rows.filter((r) => r.topPlayerShare > 0.25);
  assert.equal(await table.getByTestId('one-player').count(), dominated.length, 'badges');
  if (dominated.length > 0) {
    const warnings = await page.locator('main .warnings').innerText();
    assert.match(warnings, /one player plays/);
    for (const r of dominated) assert.ok(warnings.includes(r.faction.name), r.faction.name);
    const lines = page.locator('main .warnings li', { hasText: 'one player' });
    assert.equal(await lines.count(), 1, 'one line for them all');
  }
  assert.match(await table.locator('thead').innerText(), /After pilot skill/);
  await fits(page, `${served.name} Meta`);
  await shot(page, served, 'meta-strength', size);
}

/** A faction's page: its strength, and the monthly chart with its table. */
async function checkFaction(page: Page, served: Served, size: Size): Promise<void> {
  const faction = served.strength[0].faction.id as string;
  await page.goto(`${served.origin}/?view=faction&faction=${encodeURIComponent(faction)}`);
  await settled(page);
  const section = page.locator('section[aria-labelledby="expectation-h"]');
  await section.getByTestId('expectation-chart').waitFor();
  assert.match(await section.getByTestId('faction-strength').innerText(), /\d+(\.\d)? %/);
  assert.equal(await section.locator('canvas').count(), 1, 'the chart is drawn');
  const body = { monthly: [faction] };
  const months = (await post(served, '/api/faction-strength', body)).data.factions.find(
    (r: Row) => r.faction.id === faction,
  ).monthly as Row[];
  assert.ok(months.length > 0);
  await section.locator('details.as-table summary').click();
  const rows = section.locator('details.as-table tbody tr');
  assert.equal(await rows.count(), months.length, 'a table row per month');
  assert.match(await rows.first().innerText(), /[+−±]\d+\.\d pp/);
  await fits(page, `${served.name} faction page`);
  await shot(page, served, 'faction-expectation', size);
}

/** The head to head of one game's players: the joint model's forecast, named as such. */
async function checkHeadToHead(page: Page, served: Served, size: Size): Promise<void> {
  const [, , , p1, p2] = served.game;
  await page.goto(`${served.origin}/?view=player&player=${p1}&vs=${p2}`);
  await settled(page);
  const h2h = page.getByTestId('head-to-head');
  await until(async () => !(await h2h.getByTestId('forecast').innerText()).includes('…'));
  assert.match(await h2h.getByTestId('forecast').innerText(), /\d+ %/);
  assert.match(await h2h.getByTestId('forecast-model').innerText(), /Joint model/);
  await fits(page, `${served.name} head to head`);
  await shot(page, served, 'head-to-head', size);
  await h2h.locator('select').nth(1).selectOption('');
  await until(async () => /ratings only/.test(await h2h.getByTestId('forecast-model').innerText()));
}

/** About the forecasts: the verdict agrees with the answer's Brier scores; bars per model. */
async function checkAbout(page: Page, served: Served, size: Size): Promise<void> {
  await page.goto(`${served.origin}/?view=forecast`);
  await settled(page);
  const models = (await post(served, '/api/forecast-accuracy', {})).data.models as Row[];
  const by = new Map(models.map((m) => [m.model, m]));
  const verdict = await page.getByTestId('verdict').innerText();
  const better = by.get('joint')!.brier < by.get('rating')!.brier;
  assert.match(verdict, better ? /beats rating only/ : /no better than rating only/);
  assert.ok(verdict.includes(by.get('joint')!.brier.toFixed(4)), verdict);
  // "Either" only after the joint model lost to rating only too.
  assert.equal(
    /faction only either/.test(verdict),
    !better && /no better than faction/.test(verdict),
  );
  // A calibration claim only where some bin has the 100 games it is judged on.
  const judged = (by.get('joint')!.calibration as { games: number }[]).filter(
    (b) => b.games >= 100,
  );
  assert.match(
    verdict,
    judged.length === 0 ? /too few to judge its calibration/ : /bins? of 100 games or more/,
  );
  assert.equal(await page.locator('[data-testid=brier-chart] rect').count(), 4);
  assert.ok((await page.locator('figure.calibration svg circle').count()) > 0);
  await fits(page, `${served.name} About the forecasts`);
  await shot(page, served, 'about-forecasts', size);
}

const t9aPaths = t9aSeedPaths();
const skipReason = browserSkipReason();

describe(
  `the joint model on the dashboard (${TEST_BACKEND})`,
  { skip: skipReason ?? false },
  () => {
    let browser: Browser;
    const served: Served[] = [];
    const opened: TestApp[] = [];

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      served.push(await serve('demo-slice', opened));
      if (t9aPaths !== null) served.push(await serve('t9a', opened));
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      for (const test of opened) await test.close();
    });

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`shows strength after pilot skill on Meta, a faction's months against expectation, a joint head-to-head and About the forecasts (${size})`, async (t) => {
        if (t9aPaths === null) t.diagnostic('no T9A data (test/fixtures/t9a): the demo only');
        for (const s of served) {
          const { page, errors } = await watchedPage(browser, s.origin);
          await page.setViewportSize(SIZES[size]);
          await checkMeta(page, s, size);
          await checkFaction(page, s, size);
          await checkHeadToHead(page, s, size);
          await checkAbout(page, s, size);
          assert.deepEqual(errors, [], `${s.name}: ${errors.join('; ')}`);
          await page.close();
        }
      });
    }
  },
);
