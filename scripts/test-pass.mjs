#!/usr/bin/env node
// One pass of `npm test` (scripts/run-tests.mjs): runs the test files named on the command line
// two at a time, each in a process of its own, in the order given. `node --test FILES` would sort
// them by name; the runner orders them longest first (docs/operations.md#tests). The spec report
// goes to standard output, the TAP report to the file after --tap=, and the exit status is 1 when
// any test failed.
import { createWriteStream } from 'node:fs';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const tapPath = process.argv.find((a) => a.startsWith('--tap='))?.slice('--tap='.length);
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
// Node 24 runs the .ts test files itself (type stripping): no loader in each file's process.
const execArgv = process.env.MUSTER_TEST_TIMINGS ? ['--import', './scripts/test-timings.mjs'] : [];

const stream = run({ files, concurrency: 2, execArgv });
stream.on('test:fail', () => (process.exitCode = 1));
stream.compose(spec).pipe(process.stdout);
if (tapPath !== undefined) stream.compose(tap).pipe(createWriteStream(tapPath));
