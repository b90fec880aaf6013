/**
 * `muster serve` itself under load, with each count of MUSTER_THREADS asked for
 * (docs/operations.md#threads): the statistics routes uncached (MUSTER_RESPONSE_CACHE_MB=0), a
 * browser's Accept-Encoding, `--connections` keep-alive clients each, from autocannon on this
 * machine. Per route: answers a second, p99, the whole process's CPU per answer (from
 * /proc/PID/stat) and the share of the answers each server thread gave (from /metrics).
 *
 *   npm exec -- node bench/bench-threads.ts --db bench-20000.db --threads 1,2 \
 *     --seconds 2 [--connections 8] [--label L] [--cache MB] [--rate N]
 *
 * With `--cache MB` the response cache is on (MUSTER_RESPONSE_CACHE_MB) and every request of a
 * route is the same, so all but the first are hits: cached answers a second, and the cache's
 * misses (the first requests, and those that joined their computation on their own thread).
 *
 * With MUSTER_THREADS=1 `muster serve` runs as one serving thread and one engine thread (the
 * design before server threads), so the 1-thread rows are that design's in the same run.
 *
 * The load generator runs here too, so a row also gives the machine's share busy while it ran
 * (from /proc/stat: every CPU, the time stolen by other guests apart), the load generator's own CPU
 * per request, and the machine's ceiling: the answers a second that every CPU could give at the
 * row's CPU per answer and per request. A count of threads whose row is near its ceiling cannot be
 * beaten by more threads on this machine, only by less CPU per answer.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    threads: { type: 'string', default: '1,2' },
    seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '8' },
    label: { type: 'string', default: 'threads' },
    routes: { type: 'string' },
    cache: { type: 'string', default: '0' },
    // Requests a second over all connections (autocannon's overallRate); unset: as fast as
    // answered. At a rate both thread counts sustain, CPU per answer compares the designs at the
    // same load instead of at each one's saturation.
    rate: { type: 'string' },
  },
});
const BIN = resolve(import.meta.dirname, '..', 'bin', 'muster.js');
const ORIGIN = 'http://bench.example';
const FILTER = { from: '2025-01-01', to: '2025-12-31', minParticipants: 16 };
const ROUTES = values.routes?.split(',') ?? [
  'faction-stats',
  'army-matchup',
  'item-use-stats',
  'scenario',
  'scenario-stats',
];
const BROWSER = 'gzip, deflate, br, zstd';

interface Row {
  route: string;
  threads: number;
  mode: string;
  rps: number;
  p99: number;
  requests: number;
  non2xx: number;
  /**
   * The response cache's misses in the measured run and its warm-up: answers computed, and
   * requests that joined a computation in flight on their thread.
   */
  misses: number;
  processCpuMs: number;
  /** Each server thread's share of the answers, in % (one serving thread: [100]). */
  shares: number[];
  /** This process's CPU (the load generator) per request, ms. */
  loadCpuMs: number;
  /** The machine's CPUs busy while the row ran, in %, and the time stolen by other guests. */
  busy: number;
  steal: number;
  /** Answers a second with every CPU busy at this row's CPU per answer and per request. */
  ceiling: number;
}

/** Every CPU's time so far (proc(5), the first line of /proc/stat), in clock ticks. */
function machineTicks(): { total: number; idle: number; steal: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { total, idle: idle + iowait, steal };
}

/** The process's CPU so far, ms (utime + stime of /proc/PID/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Requests each server thread answered (empty: one serving thread) and the response cache's
 * misses so far, from one scrape.
 */
async function scrape(metricsUrl: string): Promise<{ byThread: number[]; misses: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const byThread = [
    ...text.matchAll(/^muster_thread_requests_total\{thread="(\d+)"\} (\d+)$/gm),
  ].map((m) => Number(m[2]));
  const misses = Number(/^muster_response_cache_misses_total (\d+)$/m.exec(text)?.[1] ?? 0);
  return { byThread, misses };
}

async function serve(threads: number) {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      MUSTER_DATABASE_URL: resolve(values.db!),
      MUSTER_PORT: '0',
      MUSTER_THREADS: String(threads),
      MUSTER_RESPONSE_CACHE_MB: values.cache,
      MUSTER_RATE_LIMIT_MAX: '1000000',
      MUSTER_ALLOWED_ORIGINS: ORIGIN,
      MUSTER_METRICS_PORT: '0',
      MUSTER_LOG_LEVEL: 'warn',
      MUSTER_SNAPSHOT_FILE: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((done, fail) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (/metrics \(operators only\)/.test(out)) done();
    });
    void exited.then(() => fail(new Error(`muster serve exited: ${out}`)));
  });
  const url = /listening on (http:\/\/\S+)/.exec(out)![1];
  const mode = /\(store: [^;]*; (.*)\)$/m.exec(out)![1];
  const metricsUrl = /metrics \(operators only\): (\S+)/.exec(out)![1];
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  return { pid: child.pid!, url, mode, metricsUrl, stop };
}

async function load(url: string, route: string, seconds: number) {
  return autocannon({
    url: `${url}/api/${route}`,
    method: 'POST',
    connections: Number(values.connections),
    duration: seconds,
    ...(rate === undefined ? {} : { overallRate: rate }),
    headers: { origin: ORIGIN, 'content-type': 'application/json', 'accept-encoding': BROWSER },
    body: JSON.stringify(FILTER),
  });
}

async function run(threads: number, seconds: number): Promise<Row[]> {
  const server = await serve(threads);
  const rows: Row[] = [];
  try {
    for (const route of ROUTES) {
      const start = await scrape(server.metricsUrl);
      await load(server.url, route, 1); // warm-up: serialisers compiled, caches touched
      const [cpu0, { byThread: by0 }] = [cpuMs(server.pid), await scrape(server.metricsUrl)];
      const [ticks0, own0] = [machineTicks(), process.cpuUsage()];
      const result = await load(server.url, route, seconds);
      const cpu1 = cpuMs(server.pid);
      const [ticks1, own] = [machineTicks(), process.cpuUsage(own0)];
      const span = Math.max(1, ticks1.total - ticks0.total);
      const { byThread: by1, misses } = await scrape(server.metricsUrl);
      const answered = by1.map((n, i) => n - by0[i]);
      const total = answered.reduce((a, b) => a + b, 0);
      const requests = Math.max(1, result.requests.total);
      const processCpuMs = (cpu1 - cpu0) / requests;
      const loadCpuMs = (own.user + own.system) / 1000 / requests;
      const row: Row = {
        route,
        threads,
        mode: server.mode,
        rps: result.requests.average,
        p99: result.latency.p99,
        requests: result.requests.total,
        non2xx: result.non2xx,
        misses: misses - start.misses,
        processCpuMs,
        shares: total === 0 ? [100] : answered.map((n) => (100 * n) / total),
        loadCpuMs,
        busy: (100 * (span - (ticks1.idle - ticks0.idle))) / span,
        steal: (100 * (ticks1.steal - ticks0.steal)) / span,
        ceiling: (availableParallelism() * 1000) / (processCpuMs + loadCpuMs),
      };
      rows.push(row);
      console.error(
        `${route}, ${threads} thread(s): ${row.rps.toFixed(0)} req/s, p99 ${row.p99} ms, ` +
          `${row.processCpuMs.toFixed(2)} ms CPU/answer, shares ${row.shares.map((s) => s.toFixed(0)).join('/')} %, ` +
          `machine ${row.busy.toFixed(0)} % busy (${row.steal.toFixed(0)} % stolen), ceiling ${row.ceiling.toFixed(0)} req/s` +
          (cached ? `, ${row.misses} misses` : ''),
      );
    }
  } finally {
    await server.stop();
  }
  return rows;
}

const cached = Number(values.cache) > 0;
const rate = values.rate === undefined ? undefined : Number(values.rate);
const counts = values.threads.split(',').map(Number);
const loadBefore = loadavg()[0];
const seconds = Number(values.seconds);
const rows: Row[] = [];
for (const threads of counts) rows.push(...(await run(threads, seconds)));

// Each row against the nearest row before it (itself included) of the first count asked for, so
// that `--threads 1,2,1,2` compares each round's two counts with each other, not across rounds.
const base = (row: Row) =>
  rows
    .slice(0, rows.indexOf(row) + 1)
    .findLast((r) => r.route === row.route && r.threads === counts[0])!;
const lines = [
  `# muster serve by MUSTER_THREADS (${values.label})`,
  '',
  `Node ${process.version}, ${availableParallelism()} CPUs (shared with other work: the load generator runs on the same machine), ` +
    `load average ${loadBefore.toFixed(0)} at the start and ${loadavg()[0].toFixed(0)} at the end, ` +
    `data set ${values.db}, ${values.connections} keep-alive clients` +
    (rate === undefined ? '' : ` sending ${rate} requests a second in all`) +
    `, ${seconds} s a route after a 1 s warm-up, ` +
    (cached
      ? `one request a route, cached (MUSTER_RESPONSE_CACHE_MB=${values.cache}; "misses": the cache's, warm-up included: a request that joined a computation in flight on its thread counts as one)`
      : 'uncached') +
    `, Accept-Encoding "${BROWSER}".`,
  '',
  'Machine busy: every CPU of the machine, as /proc/stat counts it while the row ran (stolen: by other guests of the host). ' +
    "Ceiling: the answers a second with every CPU busy at the row's process CPU per answer plus the load generator's per request; " +
    'a row near its ceiling is bounded by the machine, so more threads can raise it only by spending less CPU per answer.',
  '',
  `| route | threads | mode | req/s | vs the first count (this round) | p99 ms | process CPU ms/answer | load generator CPU ms/request | machine busy (stolen) | req/s of ceiling | share per thread | non-2xx |${cached ? ' misses |' : ''}`,
  `| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |${cached ? ' ---: |' : ''}`,
  ...rows.map(
    (r) =>
      `| ${r.route} | ${r.threads} | ${r.mode} | ${r.rps.toFixed(0)} | ${(r.rps / base(r).rps).toFixed(2)}x | ${r.p99} | ${r.processCpuMs.toFixed(2)} | ${r.loadCpuMs.toFixed(2)} | ${r.busy.toFixed(0)} % (${r.steal.toFixed(0)} %) | ${r.rps.toFixed(0)} of ${r.ceiling.toFixed(0)} | ${r.shares.map((s) => `${s.toFixed(0)} %`).join(' / ')} | ${r.non2xx} |${cached ? ` ${r.misses} |` : ''}`,
  ),
  '',
];
const file = join(import.meta.dirname, 'results', `bench-${values.label}`);
writeFileSync(`${file}.md`, lines.join('\n'));
writeFileSync(
  `${file}.json`,
  JSON.stringify(
    {
      node: process.version,
      cpus: availableParallelism(),
      loadBefore,
      loadAfter: loadavg()[0],
      rows,
    },
    null,
    2,
  ),
);
console.error(`wrote ${file}.md`);
