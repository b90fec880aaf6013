// Test timings for `npm test` when MUSTER_TEST_TIMINGS names a file (docs/operations.md#tests):
// one JSON line per test file with its wall time, the CPU time of its own process's threads, and
// the CPU time of the processes it started and waited for (Chromium, `muster serve`:
// /proc/self/stat's cutime and cstime, on Linux). Loaded with --import into every test process: a
// file in a process of its own is timed from the process's start to its exit; the files that
// share a process (scripts/test-pass.mjs) are each timed by `timeSharedFile` from their first
// test to their last.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before } from 'node:test';
import { isMainThread } from 'node:worker_threads';

const out = process.env.MUSTER_TEST_TIMINGS;
const file = process.argv[1];
const backend = /^postgres/i.test(process.env.MUSTER_TEST_DATABASE_URL ?? '')
  ? 'postgres'
  : 'sqlite';

/** CPU ms of waited-for child processes; 0 where /proc is absent. Clock ticks are 100 a second on Linux. */
function childCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name's closing parenthesis; cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/** What a line's figures are measured from: now, or the process's start. */
function clock() {
  const cpu = process.cpuUsage();
  return { wall: performance.now(), cpu: (cpu.user + cpu.system) / 1000, child: childCpuMs() };
}

function record(name, from) {
  const now = clock();
  const line = {
    file: name,
    backend,
    wallMs: Math.round(now.wall - from.wall),
    cpuMs: Math.round(now.cpu - from.cpu),
    childCpuMs: Math.round(now.child - from.child),
  };
  appendFileSync(out, `${JSON.stringify(line)}\n`);
}

/**
 * Times one test file of a shared process: called inside the suite that holds the file's tests,
 * it adds a hook before the first and after the last. Only one file of a process runs at a time.
 */
export function timeSharedFile(name) {
  if (!out) return;
  let from;
  before(() => (from = clock()));
  after(() => record(name, from));
}

if (out && isMainThread && file?.endsWith('.test.ts')) {
  process.once('exit', () => record(relative(process.cwd(), file), { wall: 0, cpu: 0, child: 0 }));
}
