// Loaded into every test file's process by `npm test` when MUSTER_TEST_TIMINGS names a file
// (docs/operations.md#tests): appends one JSON line per test file with its wall time from
// process start, the CPU time of its own threads, and the CPU time of the processes it started
// and waited for (Chromium, `muster serve`: /proc/self/stat's cutime and cstime, on Linux).
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const out = process.env.MUSTER_TEST_TIMINGS;
const file = process.argv[1];

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

if (out && isMainThread && file?.endsWith('.test.ts')) {
  process.once('exit', () => {
    const cpu = process.cpuUsage();
    const line = {
      file: relative(process.cwd(), file),
      backend: /^postgres/i.test(process.env.MUSTER_TEST_DATABASE_URL ?? '')
        ? 'postgres'
        : 'sqlite',
      wallMs: Math.round(performance.now()),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      childCpuMs: childCpuMs(),
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
