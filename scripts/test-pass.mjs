#!/usr/bin/env node
// One pass of `npm test` (scripts/run-tests.mjs): runs the test files named on the command line
// two processes at a time, in the order given (`node --test FILES` would sort them by name; the
// runner orders them longest first). Most files share a process with others, one file at a time,
// so the app's modules are compiled and loaded once a process instead of once a file (about 45 %
// less CPU for those files, docs/operations.md#tests); the files that start `muster serve`
// processes (test/cli) keep a process each. The spec report goes to standard output, the TAP report to the
// file after --tap=, and the exit status is 1 when any test failed.
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const tapPath = process.argv.find((a) => a.startsWith('--tap='))?.slice('--tap='.length);
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
// Node 24 runs the .ts test files itself (type stripping): no loader in each file's process.
const execArgv = process.env.MUSTER_TEST_TIMINGS ? ['--import', './scripts/test-timings.mjs'] : [];

// The tests that start `muster serve` processes hold timing bounds on them: a process each.
const OWN_PROCESS = /^test\/cli\//;
// The browser tests share a process's Chromium (test/support/browser.ts), a few files a process:
// each takes tens of seconds, and a pass should not end on one long process while the other slot
// is idle. The other files, twenty a process.
const BROWSER = /^test\/web\//;
const FILES_PER_PROCESS = { browser: 7, other: 20 };
const url = (path) => JSON.stringify(pathToFileURL(resolve(path)).href);

/**
 * A test file for each group of shared files. Each file's tests run inside a suite named after
 * the file, which also holds its top-level hooks (`before`, `after`) to its own tests; a file
 * that fails to load fails its suite, and the files after it still run.
 */
function sharedEntries(shared, kind, dir) {
  const count = Math.ceil(shared.length / FILES_PER_PROCESS[kind]);
  const groups = Array.from({ length: count }, () => []);
  shared.forEach((file, i) => groups[i % count].push(file));
  const browser = kind === 'browser' ? url('test/support/browser.ts') : null;
  return groups.map((group, i) => {
    const entry = join(dir, `${kind}-${i + 1}-of-${count}.test.mjs`);
    const lines = [
      `// ${group.length} test files in one process (scripts/test-pass.mjs)`,
      "import { after, describe } from 'node:test';",
      `import { timeSharedFile } from ${url('scripts/test-timings.mjs')};`,
      ...(browser === null
        ? []
        : [
            `import { closeChromium, keepChromiumBetweenFiles } from ${browser};`,
            'keepChromiumBetweenFiles();',
            'after(closeChromium);',
          ]),
      ...group.map((file) => {
        const name = JSON.stringify(file);
        return `describe(${name}, async () => { timeSharedFile(${name}); await import(${url(file)}); });`;
      }),
    ];
    writeFileSync(entry, `${lines.join('\n')}\n`);
    return entry;
  });
}

const dir = mkdtempSync(join(tmpdir(), 'muster-test-shared-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const browser = files.filter((file) => BROWSER.test(file));
const own = files.filter((file) => OWN_PROCESS.test(file));
const other = files.filter((file) => !BROWSER.test(file) && !OWN_PROCESS.test(file));
// A handful of files (a run of some files) keeps a process each; otherwise the longest first:
// the browser tests, the `muster serve` tests, then the rest.
const ordered =
  files.length < 6
    ? files
    : [...sharedEntries(browser, 'browser', dir), ...own, ...sharedEntries(other, 'other', dir)];

const stream = run({ files: ordered, concurrency: 2, execArgv });
stream.on('test:fail', () => (process.exitCode = 1));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
stream.compose(spec).pipe(process.stdout);
if (tapPath !== undefined) stream.compose(tap).pipe(createWriteStream(tapPath));
