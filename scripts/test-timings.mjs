// Loaded into every test file's process by `npm test` when MUSTER_TEST_TIMINGS names a file
// (docs/operations.md#tests): appends one JSON line per test file with its wall time from
// process start and the CPU time of its own threads (not of the processes it starts).
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const out = process.env.MUSTER_TEST_TIMINGS;
const file = process.argv[1];
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
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
