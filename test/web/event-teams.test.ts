/**
 * A team event's teams on the event page (docs/statistics.md#team-events) in a real browser at
 * 1440x900 and 390x844, on the hand-worked event of test/support/team-event-document.ts: under
 * the system's team rule the teams are ranked (C, A, B) with a Place column and the rule named;
 * without one they are listed by name, unranked, with plain sums. Screenshots go to
 * test-artifacts/web/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
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
import { TEAM_EVENT_DOCUMENT } from '../support/team-event-document.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const skipReason = browserSkipReason();

describe(
  `a team event's teams on its page (${TEST_BACKEND})`,
  { skip: skipReason ?? false },
  () => {
    let browser: Browser;
    let test: TestApp;
    let origin: string;

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const port = await freePort();
      test = await buildTestApp({ seed: TEAM_EVENT_DOCUMENT, env: { MUSTER_PORT: String(port) } });
      await test.app.listen({ host: '127.0.0.1', port });
      origin = `http://127.0.0.1:${port}`;
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await test?.close();
    });

    for (const size of Object.keys(SIZES) as Size[]) {
      for (const [system, ranked] of [
        ['tr', true],
        ['nt', false],
      ] as const) {
        it(`${ranked ? 'ranks the teams by the team rule' : 'lists the teams unranked without a rule'} (${size})`, async () => {
          const page = await watchedPage(browser, origin);
          await page.page.setViewportSize(SIZES[size]);
          const p = page.page;
          await p.goto(`${origin}/?view=event&system=${system}&event=${system}-T`);
          const table = p.getByTestId('teams');
          await table.waitFor();
          const headers = (await table.locator('thead th').allInnerTexts()).map((h) =>
            h.replace(/[↕▲▼]/g, '').trim(),
          );
          assert.equal(headers[0] === 'Place', ranked, headers.join('|'));
          const names = await table.locator('tbody th').allInnerTexts();
          assert.deepEqual(names, ranked ? ['C', 'A', 'B'] : ['A', 'B', 'C']);
          const note = await p.getByTestId('teams-note').innerText();
          if (ranked) {
            assert.match(note, /total team battle points/);
            assert.match(note, /capped at 50/);
            const first = await table.locator('tbody tr').first().locator('td').allInnerTexts();
            assert.deepEqual([first[0], first[3]], ['1', '72']);
          } else assert.match(note, /not ranked/);
          const matches = await p.getByTestId('team-matches').locator('li').allInnerTexts();
          assert.equal(matches.length, 3);
          if (ranked) assert.match(matches[0], /A 50–10 B/);
          else assert.match(matches[0], /A 3–0 B/);
          if (size === 'phone') {
            const [scroll, width] = await p.evaluate<[number, number]>(
              '[document.documentElement.scrollWidth, window.innerWidth]',
            );
            assert.ok(scroll <= width, `the page is ${scroll}px wide on a ${width}px screen`);
          }
          await p.getByTestId('teams-note').evaluate((el) => el.scrollIntoView());
          await screenshot(p, { path: join(ARTIFACTS, `event-teams-${system}-${size}.png`) });
          assert.deepEqual(page.errors, []);
          await p.close();
        });
      }
    }
  },
);
