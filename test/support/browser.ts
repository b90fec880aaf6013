/**
 * A real browser for the dashboard tests: playwright-core driving Debian's Chromium at
 * /usr/bin/chromium (never a downloaded browser), headless, with a fresh profile and nothing
 * that phones home. Without the browser the tests skip, except under CI=true where they fail.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import type {
  Browser as PlaywrightBrowser,
  BrowserContext,
  Locator,
  Page,
  PageScreenshotOptions,
} from 'playwright-core';
import { WEB_CLIENT_ROOT } from '../../src/http/routes/web-client.ts';
import { buildTestApp } from './test-app.ts';
import type { TestApp, TestAppOptions } from './test-app.ts';
import { TEST_BACKEND } from './test-store.ts';

export const CHROMIUM_PATH = process.env.MUSTER_TEST_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Every request off loopback goes to a proxy that is not there (port 9 on loopback, nothing
  // listening), so it fails inside Chromium; loopback bypasses any proxy by default. This
  // replaces intercepting every request through Playwright (page.route), a round trip to the
  // test process per request (docs/operations.md#tests).
  '--proxy-server=http://127.0.0.1:9',
  // Each window's omnibox popup is a page of Chromium's own UI with a renderer of its own: a
  // fifth of Chromium's CPU in a browser test file, for a popup never shown. Chromium keeps only
  // the last --disable-features, so Playwright's own list (playwright-core's chromiumSwitches)
  // is repeated here.
  `--disable-features=${[
    ...['AcceptCHFrame', 'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose'],
    ...['DialMediaRouteProvider', 'GlobalMediaControls', 'HttpsUpgrades', 'LensOverlay'],
    ...['MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'Translate'],
    ...['AutoDeElevate', 'RenderDocument', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'],
  ].join(',')}`,
];

/** Why the browser tests cannot run here, or null when they can; fails under CI=true. */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null;
  const message = `no browser at ${CHROMIUM_PATH} (install Debian's chromium package)`;
  if (process.env.CI === 'true') assert.fail(`${message}; CI requires it`);
  return `${message}; the browser tests are SKIPPED`;
}

/**
 * Why the dashboard's browser tests cannot run here (no browser, or the client not built), or
 * null when they can; on CI either is a failure.
 */
export function browserSkipReason(): string | null {
  const reason =
    browserMissing() ??
    (existsSync(join(WEB_CLIENT_ROOT, 'index.html'))
      ? null
      : 'the client is not built (npm run build:web)');
  if (reason !== null && process.env.CI === 'true') assert.fail(`${reason}; CI requires it`);
  return reason;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

// One Chromium a process, started on first use. Each caller gets a fresh context of its own (no
// cookies, storage or cache from another), which is what a fresh profile gave; starting Chromium
// costs about 0.7 s of CPU, once a process instead of once a test file (docs/operations.md#tests).
let running: Promise<PlaywrightBrowser> | null = null;
let users = 0;

/** A fresh browser context on this process's Chromium; closing it ends Chromium once unused. */
export async function launchBrowser(): Promise<Browser> {
  users += 1;
  running ??= chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
  const context = await (
    await running
  ).newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(20_000);
  return {
    context,
    async close() {
      await context.close();
      users -= 1;
      // A file's suite ends before the next one starts (scripts/test-pass.mjs), so Chromium is
      // kept while the process holds files still to run, and closed after the last.
      if (users === 0 && !keepChromium) await closeChromium();
    },
  };
}

let keepChromium = false;

/**
 * Keeps Chromium running between test files of a shared process; scripts/test-pass.mjs calls
 * this, and `closeChromium` after the process's last file.
 */
export function keepChromiumBetweenFiles(): void {
  keepChromium = true;
}

/** Ends this process's Chromium, if running. */
export async function closeChromium(): Promise<void> {
  const ending = running;
  running = null;
  await (await ending)?.close();
}

export interface Watched {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
  /** Requests to anywhere but the service, which were refused. */
  outside: string[];
  /**
   * Resolves once no request of the page has been in flight for 50 ms: what Playwright's
   * 'networkidle' waits for, without its fixed 500 ms of silence on every call.
   */
  quiet(): Promise<void>;
}

/**
 * A new page that records console errors and any request off `origin`, which Chromium refuses
 * (FLAGS' proxy).
 */
export async function watchedPage(browser: Browser, origin: string): Promise<Watched> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  const outside: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  let inFlight = 0;
  page.on('request', (request) => {
    inFlight += 1;
    const url = request.url();
    if (new URL(url).origin !== origin && !url.startsWith('data:')) outside.push(url);
  });
  page.on('requestfinished', () => (inFlight -= 1));
  page.on('requestfailed', () => (inFlight -= 1));
  const quiet = async () => {
    for (let silent = 0; silent < 2; silent = inFlight === 0 ? silent + 1 : 0) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return { page, errors, outside, quiet };
}

/** Polls a condition until it holds, failing after `ms`. */
export async function until(condition: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`condition not met in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Where the browser tests save their screenshots (gitignored), to be looked at after a run. */
export const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts/web');

/**
 * Saves a screenshot of a page or an element to `options.path`, on the SQLite pass only: the
 * PostgreSQL pass shows the same pages over the same data, and a full-page PNG costs the browser
 * about as long as opening the page (docs/operations.md#tests). Where none is taken, an element is
 * still waited for until visible, as its screenshot would have been.
 */
export async function screenshot(target: Page | Locator, options: PageScreenshotOptions) {
  if (TEST_BACKEND === 'sqlite') await target.screenshot(options);
  else if ('waitFor' in target) await target.waitFor({ state: 'visible' });
}

/** The two screens every page is checked on: a desktop and a phone. */
export const SIZES = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
export type Size = keyof typeof SIZES;

/** A port free on 127.0.0.1 now, for a test app that must listen for the browser. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** A test app listening on a free loopback port, for the browser tests: the app and its origin. */
export async function serveTestApp(
  options: TestAppOptions,
): Promise<{ test: TestApp; origin: string }> {
  const port = await freePort();
  const test = await buildTestApp({
    ...options,
    env: { ...options.env, MUSTER_PORT: String(port) },
  });
  await test.app.listen({ host: '127.0.0.1', port });
  return { test, origin: `http://127.0.0.1:${port}` };
}
