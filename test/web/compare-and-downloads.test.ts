/**
 * Before/after, downloads and definitions in a real browser (Chromium through playwright-core)
 * at 1440x900 and 390x844 (a touch screen): the before/after view highlights a change whose
 * interval excludes 0 on data built to have one and greys one that does not; a table's CSV holds
 * exactly the rows and numbers it shows; a chart's PNG is a PNG; a column's definition opens by
 * tap and by keyboard and links to a section that exists. Over a built data set, the demo slice
 * and the committed T9A slice (test/fixtures/t9a). Screenshots go to test-artifacts/web/.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CanonicalDocument, Game as CanonicalGame } from '../../src/domain/model.ts';
import { WEB_CLIENT_ROOT } from '../../src/http/routes/web-client.ts';
import {
  ARTIFACTS,
  browserMissing,
  CHROMIUM_PATH,
  freePort,
  screenshot,
  SIZES,
  until,
} from '../support/browser.ts';
import type { Size } from '../support/browser.ts';
import { buildTestApp, t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

/**
 * Four factions over two rules versions: Alpha beats Bravo half the time under 1.0 and nine
 * times in ten under 1.1 (60 games each: far beyond its interval); Charlie and Delta draw even
 * in both (not a change).
 */
export function patchedDocument(): CanonicalDocument {
  let player = 0;
  const game = (id: string, round: number, first: string, second: string, firstWins: boolean) =>
    ({
      id,
      round,
      sides: [
        { player: `p${++player}`, faction: first, score: firstWins ? 15 : 5 },
        { player: `p${++player}`, faction: second, score: firstWins ? 5 : 15 },
      ],
    }) satisfies CanonicalGame;
  const event = (id: string, start: string, rules: string, alphaWins: number) => {
    const games: CanonicalGame[] = [];
    for (let i = 0; i < 60; i++) games.push(game(`${id}-ab${i}`, i + 1, 'A', 'B', i < alphaWins));
    for (let i = 0; i < 60; i++) games.push(game(`${id}-cd${i}`, i + 1, 'C', 'D', i % 2 === 0));
    return {
      id,
      system: 'bva',
      name: `Patch Open ${rules}`,
      start,
      end: start,
      status: 'completed' as const,
      format: 'singles' as const,
      tier: 'standard' as const,
      participants: 240,
      rulesVersion: rules,
      games,
    };
  };
  const events = [event('e1', '2025-03-01', '1.0', 30), event('e2', '2025-09-01', '1.1', 54)];
  return {
    format: 'muster/v1',
    systems: [{ id: 'bva', name: 'Before and After', score: { min: 0, max: 20, total: 20 } }],
    factions: ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((name) => ({
      id: name[0],
      system: 'bva',
      name,
    })),
    players: Array.from({ length: player }, (_, i) => ({ id: `p${i + 1}` })),
    events,
  };
}

interface Served {
  test: TestApp;
  origin: string;
}

async function serve(seed: 'demo-slice' | 't9a' | CanonicalDocument): Promise<Served> {
  const port = await freePort();
  const test = await buildTestApp({ seed, shared: true, env: { MUSTER_PORT: String(port) } });
  await test.app.listen({ host: '127.0.0.1', port });
  return { test, origin: `http://127.0.0.1:${port}` };
}

/** Opens a view and waits until its numbers are in. */
async function open(page: Page, origin: string, query: string): Promise<void> {
  await page.goto(`${origin}/?${query}`);
  await page.locator('main h1').waitFor();
  // A faction page loads several sections at once (one loading line each): wait for all of them.
  const loading = page.locator('main .status[role=status]:not(.empty)');
  await until(async () => (await loading.count()) === 0);
  await settled(page);
}

/** Waits until no part of the page is reloading. */
async function settled(page: Page): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await page.locator('.reloading').count()) > 0) {
    assert.ok(Date.now() < deadline, 'the page is still reloading after 20 s');
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** A CSV document's records (RFC 4180: quoted fields, doubled quotes, CRLF). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\r')) {
      field += c;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else {
      assert.equal(text[i + 1], '\n', 'a record ends in CRLF');
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    }
  }
  assert.equal(field + record.join(''), '', 'the last record ends in CRLF');
  return records;
}

async function download(page: Page, button: ReturnType<Page['locator']>) {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: readFileSync(path) };
}

const numberIn = (text: string): number => Number(text.replace(/[^\d.−-]/g, '').replace('−', '-'));

interface FiltersAnswer {
  data: { systems: Array<{ id: string; from: string; to: string }> };
}

const filtersOf = async (origin: string): Promise<FiltersAnswer> =>
  (await (await fetch(`${origin}/api/filters`)).json()) as FiltersAnswer;

/** A statistics route's answer, asked as the dashboard asks it (from its own origin). */
async function postJson<T>(origin: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as T;
}

const skipReason =
  browserMissing() ??
  (existsSync(join(WEB_CLIENT_ROOT, 'index.html')) ? null : 'the client is not built');
if (skipReason !== null && process.env.CI === 'true') assert.fail(`${skipReason}; CI requires it`);

describe(
  `before/after, downloads and definitions (${TEST_BACKEND})`,
  { skip: skipReason ?? false },
  () => {
    let browser: Browser;
    const served: Partial<Record<'patched' | 'demo' | 't9a', Served>> = {};
    const contexts = new Map<Size, BrowserContext>();

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      served.patched = await serve(patchedDocument());
      served.demo = await serve('demo-slice');
      if (t9aSeedPaths() !== null) served.t9a = await serve('t9a');
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      for (const size of Object.keys(SIZES) as Size[]) {
        const context = await browser.newContext({
          viewport: SIZES[size],
          hasTouch: size === 'phone',
          isMobile: size === 'phone',
          acceptDownloads: true,
          locale: 'en-GB',
          timezoneId: 'UTC',
        });
        context.setDefaultTimeout(20_000);
        contexts.set(size, context);
      }
    });
    after(async () => {
      await browser?.close();
      for (const s of Object.values(served)) await s.test.close();
    });

    const pageAt = async (size: Size) => {
      const page = await contexts.get(size)!.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      return { page, errors };
    };

    for (const size of Object.keys(SIZES) as Size[]) {
      it(`highlights the faction that changed after the rules update and greys the one that did not (${size})`, async () => {
        const { origin } = served.patched!;
        const { page, errors } = await pageAt(size);
        await open(page, origin, 'view=compare');
        const row = (name: string) => page.locator('main tbody tr', { hasText: name }).first();
        await row('Alpha').waitFor();
        assert.match((await row('Alpha').getAttribute('class')) ?? '', /\bhighlight\b/);
        assert.match((await row('Alpha').innerText()).replace(/\s+/g, ' '), /\+40\.0 pp/);
        const charlie = (await row('Charlie').getAttribute('class')) ?? '';
        assert.doesNotMatch(charlie, /\bhighlight\b/);
        assert.match(charlie, /\bmuted\b/);
        assert.equal(await row('Charlie').locator('[data-spans-zero=true]').count(), 1);
        const matchup = (name: string) => page.locator('main tbody tr', { hasText: name });
        assert.match((await matchup('Alpha vs Bravo').getAttribute('class')) ?? '', /highlight/);
        assert.doesNotMatch(
          (await matchup('Charlie vs Delta').getAttribute('class')) ?? '',
          /highlight/,
        );
        await screenshot(page, {
          path: join(ARTIFACTS, `compare-${size}-${TEST_BACKEND}.png`),
          fullPage: true,
        });

        // The quick choice is the rules update as a date cut at the first event of 1.1.
        const choice = page.getByTestId('rules-update');
        assert.equal(await choice.inputValue(), '0');
        assert.equal(
          (await choice.locator('option:checked').innerText()).trim(),
          'before/after 1.1 (from 2025-09-01)',
        );
        assert.match(
          await page.getByTestId('compare-summary').innerText(),
          /Before: 2025-03-01 – 2025-08-31, 120 games\. After: 2025-09-01 – 2025-09-01, 120 games/,
        );
        assert.equal(await page.locator('fieldset[data-window=after] select').inputValue(), '');

        // The windows are in the URL: a link restores them, back undoes a change.
        await page.locator('fieldset[data-window=after] select').selectOption('1.1');
        await page.waitForURL((url) => url.search.includes('afterRules=1.1'));
        await settled(page);
        assert.equal(await page.getByTestId('rules-update').inputValue(), '-1');
        await page.goBack();
        await settled(page);
        assert.equal(await page.getByTestId('rules-update').inputValue(), '0');
        const shared = `view=compare&beforeTo=2025-06-30&afterFrom=2025-07-01`;
        await open(page, origin, shared);
        assert.match((await row('Alpha').getAttribute('class')) ?? '', /\bhighlight\b/);
        assert.match(await page.getByTestId('compare-summary').innerText(), /until 2025-06-30/);
        assert.deepEqual(errors, []);
        await page.close();
      });

      it(`downloads the faction table as a CSV of exactly the rows and numbers shown (${size})`, async () => {
        for (const name of ['demo', 't9a'] as const) {
          const at = served[name];
          if (at === undefined) continue;
          const { page, errors } = await pageAt(size);
          const filters = (await (await fetch(`${at.origin}/api/filters`)).json()) as {
            data: { systems: Array<{ id: string; from: string; to: string }> };
          };
          const system = filters.data.systems[0];
          await open(page, at.origin, `from=${system.from}&to=${system.to}`);
          const rows = page.locator('main table').first().locator('tbody tr');
          const names = () =>
            rows.evaluateAll((trs) =>
              trs.map((tr) => tr.querySelector('th')?.firstChild?.textContent?.trim() ?? ''),
            );
          // A section answering late can still re-sort the table on a loaded machine: the file is
          // compared with the table as it stood around the click, downloaded again if it moved.
          let file: Awaited<ReturnType<typeof download>>;
          for (let attempt = 1; ; attempt++) {
            const before = await names();
            file = await download(page, page.locator('main .table-tools button.download').first());
            if (JSON.stringify(await names()) === JSON.stringify(before)) break;
            assert.ok(attempt < 3, 'the table kept changing around three downloads');
            await settled(page);
          }
          assert.equal(file.name, `muster-meta-${system.id}-${system.from}_${system.to}.csv`);
          const [header, ...records] = parseCsv(file.bytes.toString('utf8'));
          assert.deepEqual(header.slice(0, 5), [
            'faction',
            'games',
            'winRate',
            'winRateLow',
            'winRateHigh',
          ]);
          assert.equal(records.length, await rows.count());
          for (let i = 0; i < records.length; i++) {
            const cells = rows.nth(i);
            const shownName = await cells
              .locator('th')
              .evaluate((th) => th.firstChild?.textContent ?? '');
            assert.equal(records[i][0], shownName.trim(), `${name} row ${i + 1}: faction`);
            assert.equal(
              Number(records[i][1]),
              numberIn(await cells.locator('td').nth(0).innerText()),
            );
            const shownRate = (await cells.locator('td .interval-text').first().innerText()).split(
              '\n',
            )[0];
            assert.equal(`${(Number(records[i][2]) * 100).toFixed(1)} %`, shownRate.trim());
            assert.ok(Number(records[i][3]) <= Number(records[i][2]));
            assert.ok(Number(records[i][4]) >= Number(records[i][2]));
          }
          assert.deepEqual(errors, []);
          await page.close();
        }
      });

      it(`downloads an event's standings and the Satellites table as CSVs of exactly the rows and numbers shown (${size})`, async () => {
        for (const name of ['demo', 't9a'] as const) {
          const at = served[name];
          if (at === undefined) continue;
          const { page, errors } = await pageAt(size);
          const system = (await filtersOf(at.origin)).data.systems[0];
          const events = await postJson<{ data: { events: Array<{ id: string }> } }>(
            at.origin,
            '/api/events',
            { system: system.id, pageSize: 1 },
          );
          const id = events.data.events[0].id;
          await open(page, at.origin, `view=event&event=${id}`);
          const standings = page.getByTestId('standings');
          await standings.waitFor();
          await screenshot(page, {
            path: join(ARTIFACTS, `csv-event-${name}-${size}-${TEST_BACKEND}.png`),
            fullPage: true,
          });
          const file = await download(
            page,
            page.locator('main .table-tools button.download').first(),
          );
          assert.equal(file.name, `muster-event-${system.id}-${id}-standings.csv`);
          const [header, ...records] = parseCsv(file.bytes.toString('utf8'));
          // A Place column (and its CSV column) only where the event has places
          // (docs/statistics.md#standings): published or derived by the system's rule.
          const placements = await page
            .getByTestId('placement-note')
            .getAttribute('data-placements');
          const placed = placements !== 'none';
          const fixed = [
            ...(placed ? ['placement'] : []),
            'playerId',
            'player',
            'factionId',
            'faction',
            'wins',
            'draws',
            'losses',
            'score',
            'undefeated',
          ];
          assert.deepEqual(header.slice(0, fixed.length), fixed);
          // Then the tie-breakers the system declares that have no column of their own.
          for (const key of header.slice(fixed.length)) {
            assert.ok(['opponentWins', 'opponentWinsMean', 'margin'].includes(key), key);
          }
          const rows = standings.locator('tbody tr');
          assert.ok(records.length > 0);
          assert.equal(records.length, await rows.count());
          for (let i = 0; i < records.length; i++) {
            const placement = placed ? records[i][0] : null;
            const [playerId, player, , faction, wins, draws, losses, score] = records[i].slice(
              placed ? 1 : 0,
            );
            const cells = rows.nth(i);
            // textContent: a column a phone leaves out is still in the row.
            const text = async (n: number) =>
              ((await cells.locator('td').nth(n).textContent()) ?? '').trim();
            const at_ = `${name} standings row ${i + 1}`;
            const first = placed ? 1 : 0;
            if (placement !== null) assert.equal(placement || '–', await text(0), at_);
            assert.equal(playerId, await cells.getAttribute('data-player'), at_);
            // A player without a name shows a prefix of their id; the CSV keeps both raw.
            const shown = ((await cells.locator('th a').first().textContent()) ?? '').trim();
            if (player) assert.equal(shown, player, at_);
            else assert.ok(shown.startsWith('#') && playerId.startsWith(shown.slice(1)), at_);
            assert.equal(faction || '–', await text(first), at_);
            assert.equal(`${wins} / ${draws} / ${losses}`, await text(first + 1), at_);
            assert.equal(Math.round(Number(score)), numberIn(await text(first + 2)), at_);
          }

          // Satellites: the page's own filter names the file; the demo data has upcoming ones.
          await open(page, at.origin, 'view=satellites');
          await screenshot(page, {
            path: join(ARTIFACTS, `csv-satellites-${name}-${size}-${TEST_BACKEND}.png`),
            fullPage: true,
          });
          const satellites = page.locator('main table');
          if ((await satellites.count()) === 0) {
            assert.equal(await page.locator('main button.download').count(), 0);
          } else {
            const sat = await download(page, page.locator('main .table-tools button.download'));
            assert.equal(sat.name, `muster-satellites-${system.id}.csv`);
            const [head, ...lines] = parseCsv(sat.bytes.toString('utf8'));
            const col = (h: string) => head.indexOf(h);
            const shown = satellites.locator('tbody tr');
            assert.ok(lines.length > 0);
            assert.equal(lines.length, await shown.count());
            for (let i = 0; i < lines.length; i++) {
              const cells = shown.nth(i);
              const line = lines[i];
              assert.equal(
                line[col('event')],
                ((await cells.locator('th').textContent()) ?? '').trim(),
              );
              const date = ((await cells.locator('td').first().textContent()) ?? '').trim();
              assert.ok(
                date.startsWith(line[col('start')]),
                `${date} starts ${line[col('start')]}`,
              );
              const link = cells.locator('a[href]');
              assert.equal(
                line[col('registrationUrl')],
                (await link.count()) ? await link.getAttribute('href') : '',
              );
            }
          }
          assert.deepEqual(errors, []);
          await page.close();
        }
      });

      it(`shows a faction's most played scenario parts first and downloads every one (${size})`, async () => {
        const at = served.t9a ?? served.demo!;
        const { page, errors } = await pageAt(size);
        const system = (await filtersOf(at.origin)).data.systems[0];
        const parts = await postJson<{
          data: {
            scenarios: Array<{ factions: Array<{ faction: { id: string }; games: number }> }>;
          };
        }>(at.origin, '/api/scenario-stats', { system: system.id });
        // The faction with the most parts played.
        const count = new Map<string, number>();
        for (const s of parts.data.scenarios)
          for (const f of s.factions)
            if (f.games > 0) count.set(f.faction.id, (count.get(f.faction.id) ?? 0) + 1);
        const [faction, total] = [...count].sort((a, b) => b[1] - a[1])[0];
        assert.ok(total > 8, `${faction} plays ${total} parts: too few to shorten`);
        await open(page, at.origin, `view=faction&faction=${faction}`);
        const section = page.locator('section[aria-labelledby=parts-h]');
        const rows = section.locator('tbody tr');
        await rows.first().waitFor();
        assert.equal(await rows.count(), 8);
        await section.scrollIntoViewIfNeeded();
        await screenshot(page, {
          path: join(ARTIFACTS, `scenario-parts-${size}-${TEST_BACKEND}.png`),
        });
        const file = await download(page, section.locator('button.download'));
        assert.equal(file.name, `muster-faction-${system.id}-${faction}-scenario-parts.csv`);
        const [header, ...records] = parseCsv(file.bytes.toString('utf8'));
        assert.deepEqual(header.slice(0, 3), ['kind', 'part', 'games']);
        assert.equal(records.length, total);
        const games = records.map((r) => Number(r[2]));
        assert.deepEqual(
          games,
          [...games].sort((a, b) => b - a),
          'most games first',
        );
        for (let i = 0; i < 8; i++) {
          const th = ((await rows.nth(i).locator('th').textContent()) ?? '').trim();
          assert.equal(th, `${records[i][1]}${records[i][0]}`);
        }
        await section.getByRole('button', { name: `Show all ${total} rows` }).click();
        assert.equal(await rows.count(), total);
        assert.deepEqual(errors, []);
        await page.close();
      });

      it(`downloads the win-rate chart and the heatmap as PNG images (${size})`, async () => {
        const { page, errors } = await pageAt(size);
        const { origin } = served.demo!;
        await open(page, origin, '');
        await page.locator('.chart canvas').first().waitFor();
        const chart = await download(page, page.locator('.chart-tools button.download'));
        assert.match(chart.name, /^muster-meta-.*-chart\.png$/);
        assert.deepEqual([...chart.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
        assert.ok(chart.bytes.length > 2000, 'the chart image is not blank');
        await open(page, origin, 'view=matchups');
        const heat = await download(page, page.getByRole('button', { name: 'Download PNG' }));
        assert.match(heat.name, /^muster-matchups-.*-heatmap\.png$/);
        assert.deepEqual([...heat.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
        assert.deepEqual(errors, []);
        await page.close();
      });

      it(`opens a column's definition by ${size === 'phone' ? 'tap' : 'click'} and by keyboard, linked to its section (${size})`, async () => {
        const { page, errors } = await pageAt(size);
        const { origin } = served.t9a ?? served.demo!;
        await open(page, origin, '');
        const info = page.locator('main button.define[data-define=winRate]').first();
        const dialog = page.getByRole('dialog', { name: 'Win rate' });
        // On a loaded machine a section can still re-render the table under the first tap or key
        // press (the button is replaced between Playwright's checks and the input); a person
        // tries again.
        const opens = async (how: string, act: () => Promise<void>) => {
          for (let attempt = 1; ; attempt++) {
            await act();
            const shown = await dialog
              .waitFor({ timeout: 5_000 })
              .then(() => true)
              .catch(() => false);
            if (shown) return;
            assert.ok(attempt < 3, `the definition dialog did not open after three ${how}`);
          }
        };
        await opens('taps', () => (size === 'phone' ? info.tap() : info.click()));
        await screenshot(page, { path: join(ARTIFACTS, `definition-${size}-${TEST_BACKEND}.png`) });
        const href = await dialog.getByRole('link').getAttribute('href');
        assert.equal(href, '/docs/statistics#win-rate');
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        // By keyboard: focus the "?" and press Enter, then Space; Escape closes either.
        for (const key of ['Enter', ' ']) {
          await opens(`presses of ${key === ' ' ? 'Space' : key}`, async () => {
            await info.focus();
            await page.keyboard.press(key);
          });
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
        }
        // Sorting still works from the heading text beside it.
        await page.locator('main th button.sort', { hasText: 'Win rate' }).first().click();
        assert.ok(await page.locator('main th[aria-sort]', { hasText: 'Win rate' }).count());
        await page.goto(`${origin}${href}`);
        assert.equal(await page.locator('[id="win-rate"]').count(), 1);
        await screenshot(page, { path: join(ARTIFACTS, `methods-${size}-${TEST_BACKEND}.png`) });
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  },
);
