/** Renders one benchmark run (bench/bench.ts) as Markdown, with the targets beside the figures. */
import { renderCosts } from './bench-costs.ts';
import type { ServerInfo } from './bench-http.ts';
import type { BenchResults } from './bench-results.ts';

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const ms = (value: number, digits = 2) => value.toFixed(digits);
const s = (value: number) => `${(value / 1000).toFixed(1)} s`;

/** The Markdown report of one run (or of the sections run so far, merged). */
export function renderMarkdown(r: BenchResults): string {
  return [
    `# Muster benchmark: ${r.games.toLocaleString('en')} games`,
    '',
    `On ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${mib(r.machine.memoryBytes)} memory, Node ${r.machine.node}; ` +
      `\`npm run bench -- --games ${r.games}\`, ${r.seconds} s per HTTP load${r.warmUpSeconds === undefined ? '' : ` after ${r.warmUpSeconds} s of the same load not measured`}; the servers read ${r.backend === 'postgres' ? 'PostgreSQL' : 'SQLite'}.`,
    '',
    ...renderRuns(r),
    ...renderData(r),
    ...renderServers('Server start-up (load section)', r.servers),
    ...renderEngine(r),
    ...renderHttp(r),
    ...renderReload(r),
    ...(r.t9a === undefined ? [] : renderT9a(r.t9a)),
    ...(r.import === undefined ? [] : renderImport(r.import)),
    ...(r.burst === undefined ? [] : renderBurst(r.burst)),
    ...(r.sockets === undefined ? [] : renderSockets(r.sockets)),
    ...(r.strength === undefined ? [] : renderStrength(r.strength)),
    ...(r.pairing === undefined ? [] : renderPairing(r.pairing)),
    ...(r.costs === undefined ? [] : renderCosts(r.costs)),
  ].join('\n');
}

/** When each section ran and the machine's load then (1, 5, 15 minute averages). */
function renderRuns(r: BenchResults): string[] {
  const load = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
  return [
    '## Sections',
    '',
    '| section | started | took | load average before | after |',
    '|---|---|---:|---|---|',
    ...Object.entries(r.runs).map(
      ([name, run]) =>
        `| ${name} | ${run.startedAt} | ${s(run.ms)} | ${load(run.loadAverage.before)} | ${load(run.loadAverage.after)} |`,
    ),
    '',
  ];
}

function renderData(r: BenchResults): string[] {
  if (r.generateMs === undefined && r.postgres === undefined && r.inThreadLoadMs === undefined) {
    return [];
  }
  const pgText =
    r.postgres === undefined
      ? 'not run'
      : 'copyMs' in r.postgres
        ? s(r.postgres.copyMs)
        : `skipped: ${r.postgres.skipped}`;
  return [
    '## Data set',
    '',
    '| figure | value |',
    '|---|---:|',
    `| generate into SQLite | ${r.generateMs == null ? 'reused' : s(r.generateMs)} |`,
    `| copy into PostgreSQL | ${pgText} |`,
    `| snapshot load (engine section) | ${r.inThreadLoadMs === undefined ? 'not run' : s(r.inThreadLoadMs)} |`,
    '',
  ];
}

/** Servers as started: load time, ready time and memory, per count of engine threads. */
function renderServers(title: string, servers: ServerInfo[] | undefined): string[] {
  if (servers === undefined || servers.length === 0) return [];
  const base = servers[0];
  return [
    `## ${title}`,
    '',
    'Each server loads the snapshot on a worker thread (as `muster serve` does), warms every engine cache and is measured after garbage collection; "snapshot file written" built the snapshot and wrote it to its file, "read" started from that file (docs/architecture.md#the-snapshot-file). Targets at 10,000,000 games: ready < 90 s, RSS < 8 GiB, each added engine thread < 10 % of the snapshot.',
    '',
    '| engine threads | games | snapshot load | ready (load + warm caches) | longest warm step | RSS ready | added over 1 thread | RSS after every route answered | added over 1 thread | shared data (snapshot typed arrays) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...servers.map((x) => {
      // Only a server that built its snapshot is set beside the first (which built it too): one
      // read from the snapshot file holds less garbage, which says nothing of its threads.
      const added = (now: number | undefined, then: number | undefined) =>
        x.workers === base.workers ||
        x.snapshotFile === 'read' ||
        now === undefined ||
        then === undefined
          ? ''
          : `${mib((now - then) / (x.workers - base.workers))} a thread`;
      const answered = x.answeredRssBytes === undefined ? 'not measured' : mib(x.answeredRssBytes);
      return (
        `| ${x.workers}${x.snapshotFile === undefined ? '' : ` (snapshot file ${x.snapshotFile})`} | ${x.games.toLocaleString('en')} | ${s(x.loadMs)} | ${s(x.readyMs)} | ${ms(x.longestWarmStepMs, 0)} ms | ` +
        `${mib(x.rssBytes)} | ${added(x.rssBytes, base.rssBytes)} | ${answered} | ${added(x.answeredRssBytes, base.answeredRssBytes)} | ${mib(x.snapshotBytes)} |`
      );
    }),
    '',
  ];
}

/** Engine medians beside SQL on the same rows (either may be missing). */
function renderEngine(r: BenchResults): string[] {
  if (r.engine === undefined && r.sql === undefined) return [];
  const keys = [...(r.engine ?? []), ...(r.sql ?? [])].map((x) => `${x.route}\u0000${x.filter}`);
  const ratio = (sql: number | null | undefined, engine: number | undefined) =>
    sql == null || engine === undefined ? 'n/a' : `${(sql / engine).toFixed(0)}x`;
  const lines = [
    '## Engine beside SQL',
    '',
    'Median of each engine call (filter normalised, scope resolved, statistics built) beside the same aggregation in SQL on the same rows and indexes; targets: engine median < 2 ms at 1,000,000 games, < 10 ms at 10,000,000, and at least 20x faster than SQL. player-duplicates is the suggestion pass of `muster players suggest` (at most 7 runs, default score), a maintenance pass outside those targets.',
    '',
    '| route | filter | engine median ms | engine p99 ms | SQLite ms | SQLite / engine | PostgreSQL ms | PostgreSQL / engine |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const key of [...new Set(keys)]) {
    const [route, filter] = key.split('\u0000');
    const e = r.engine?.find((x) => x.route === route && x.filter === filter);
    const q = r.sql?.find((x) => x.route === route && x.filter === filter);
    const na = (x: number | null | undefined, digits = 2) => (x == null ? 'n/a' : ms(x, digits));
    lines.push(
      `| ${route} | ${filter} | ${na(e?.engineMedianMs)} | ${na(e?.engineP99Ms)} | ${na(q?.sqliteMedianMs, 0)} | ` +
        `${ratio(q?.sqliteMedianMs, e?.engineMedianMs)} | ${na(q?.postgresMedianMs, 0)} | ${ratio(q?.postgresMedianMs, e?.engineMedianMs)} |`,
    );
  }
  return [...lines, ''];
}

function renderHttp(r: BenchResults): string[] {
  if (r.http === undefined) return [];
  const http = r.http;
  const lines = [
    '## HTTP',
    '',
    "autocannon (library) on loopback, in the benchmark's own process, against the server (one process) computing on 1 engine thread and on one per core (`muster serve`'s default); filter: 2025, 16+ players; " +
      'uncached = MUSTER_RESPONSE_CACHE_MB=0, cached = the same request repeated with the cache on (the server runs both, on two ports over one snapshot). ' +
      'Two ceilings on the same server: hello world as a GET, and as a POST of the same body through the same origin guard, rate limit and JSON parsing (what every statistics route pays before its handler). ' +
      'A route named ", br" is the same load with a browser\'s Accept-Encoding (`gzip, deflate, br, zstd`), answered in the coding the server prefers among those (Brotli until zstd was offered, zstd since). ' +
      "CPU per request: the serving (main) thread's, read with process.threadCpuUsage() before and after the load, and the whole process's (process.cpuUsage: engine threads, libuv's pool, the collector), each divided by the requests answered. " +
      'Targets: uncached p99 < 100 ms at 8 clients; cached >= half the POST hello-world throughput; serving-thread CPU <= 0.25 ms per uncached statistics answer.',
    '',
    '| route | engine threads | cache | clients | req/s | p50 ms | p97.5 ms | p99 ms | vs hello GET | vs hello POST | KiB per answer | serving CPU ms/req | process CPU ms/req | non-2xx |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const cpu = (value: number | undefined) => (value === undefined ? '' : value.toFixed(3));
  const ceiling = (name: string, cached: boolean, workers: number, connections: number) =>
    http
      .find((h) => h.target === name && h.cached === cached && h.workers === workers)
      ?.results.find((h) => h.connections === connections)?.rps ?? 0;
  const share = (rps: number, base: number) =>
    base > 0 ? `${((rps / base) * 100).toFixed(0)} %` : '';
  const kib = (bytes: number | undefined) => (bytes === undefined ? '' : (bytes / 1024).toFixed(1));
  for (const row of http) {
    for (const x of row.results) {
      const get = ceiling('hello world (GET)', row.cached, row.workers, x.connections);
      const post = ceiling('hello world (POST)', row.cached, row.workers, x.connections);
      lines.push(
        `| ${row.target} | ${row.workers} | ${row.cached ? 'cached' : 'uncached'} | ${x.connections} | ${x.rps.toFixed(0)} | ${x.p50} | ${x.p975} | ${x.p99} | ` +
          `${share(x.rps, get)} | ${share(x.rps, post)} | ${kib(x.bytesPerResponse)} | ${cpu(x.servingCpuMs)} | ${cpu(x.processCpuMs)} | ${x.non2xx + x.errors} |`,
      );
    }
  }
  return [...lines, '', ...renderServers('Servers of the HTTP loads', r.httpServers)];
}

function renderReload(r: BenchResults): string[] {
  const lines: string[] = [];
  if (r.quiet !== undefined) {
    lines.push(
      '## Health waits with nothing running',
      '',
      'GET /api/health every 20 ms for 15 s on the same server before the reload: what the machine adds by itself, the baseline of the two sections below.',
      '',
      '| probes | longest wait | p99 wait |',
      '|---:|---:|---:|',
      `| ${r.quiet.probes} | ${ms(r.quiet.maxWaitMs, 0)} ms | ${ms(r.quiet.p99WaitMs, 0)} ms |`,
      '',
    );
  }
  if (r.reload !== undefined) {
    lines.push(
      '## Reload',
      '',
      "GET /api/health every 20 ms while the server (one engine thread per core) reloads its snapshot (a worker thread loads it and builds the engine's caches; the serving thread adopts them and attaches in steps); target: no request waits over 250 ms.",
      '',
      '| reload | longest warm step | probes | longest wait | p99 wait |',
      '|---:|---:|---:|---:|---:|',
      `| ${s(r.reload.reloadMs)} | ${ms(r.reload.longestWarmStepMs, 0)} ms | ${r.reload.probes} | ${ms(r.reload.maxWaitMs, 0)} ms | ${ms(r.reload.p99WaitMs, 0)} ms |`,
      '',
    );
  }
  if (r.rankingsStall !== undefined) {
    lines.push(
      '## Rankings with new parameters',
      '',
      'GET /api/health every 20 ms while four rankings requests with parameters never asked before (Glicko-2 tau 0.71; tau 0.72 by week; Elo k 24; best-5 points) compute one after another on the engine threads; target: no request waits over 250 ms.',
      '',
      '| rankings ms (each) | probes | longest wait | p99 wait |',
      '|---|---:|---:|---:|',
      `| ${r.rankingsStall.rankingsMs.map((x) => ms(x, 0)).join(' / ')} | ${r.rankingsStall.probes} | ${ms(r.rankingsStall.maxWaitMs, 0)} ms | ${ms(r.rankingsStall.p99WaitMs, 0)} ms |`,
      '',
    );
  }
  return lines;
}

/** A figure that older results lack, in milliseconds; blank when absent. */
const opt = (value: number | undefined, digits?: number) =>
  value === undefined ? '' : digits === undefined ? ms(value) : value.toFixed(digits);

/** The real-data window section (bench/bench-t9a.ts). */
function renderT9a(t: NonNullable<BenchResults['t9a']>): string[] {
  const head = ['## Real data: the T9A window', ''];
  if ('skipped' in t) return [...head, `Skipped: ${t.skipped}.`, ''];
  // Older results name no coding: they were answered in Brotli.
  const coding = t.rows[0]?.browserCoding ?? 'br';
  const cpuRuns = t.cpuRuns ?? t.runs;
  return [
    ...head,
    `The T9A data set (${t.games.toLocaleString('en')} games, imported with \`muster import --format t9a\` in ${s(t.importMs)}); the four answers a player reads for 2026-01-01..2026-03-31, events of 8+ players, with default options. ` +
      `Medians of ${t.runs} runs: the engine call alone; the whole request in process (app.inject: parsing, validation, engine, envelope, serialisation); over loopback with one keep-alive connection, without and with a browser's Accept-Encoding (\`gzip, deflate, br, zstd\`: answered in ${coding}); CPU per request over ${cpuRuns} requests of a route in a row on one keep-alive connection, of the serving thread (process.threadCpuUsage()) and of the whole process (process.cpuUsage(): every thread, libuv's pool, the collector). ` +
      "Aims: all four in sequence under 5 ms uncached and under 2 ms cached; the whole process at most 1.5 ms of CPU per uncached answer with a browser's Accept-Encoding.",
    '',
    `| route | answer bytes (plain / ${coding}) | engine ms | in process ms (uncached / cached) | loopback ms (uncached / cached) | loopback ms, ${coding} (uncached / cached) | serving CPU ms/req (uncached / uncached ${coding} / cached ${coding}) | process CPU ms/req (uncached / uncached ${coding} / cached ${coding}) |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...t.rows.map(
      (row) =>
        `| ${row.route} | ${row.bytes.toLocaleString('en')} / ${row.brBytes?.toLocaleString('en') ?? ''} | ${ms(row.engineMs)} | ${ms(row.injectUncachedMs)} / ${ms(row.injectCachedMs)} | ${ms(row.loopbackUncachedMs)} / ${ms(row.loopbackCachedMs)} | ${opt(row.loopbackUncachedBrMs)} / ${opt(row.loopbackCachedBrMs)} | ${opt(row.servingCpuUncachedMs, 3)} / ${opt(row.servingCpuUncachedBrMs, 3)} / ${opt(row.servingCpuCachedBrMs, 3)} | ${opt(row.processCpuUncachedMs, 3)} / ${opt(row.processCpuUncachedBrMs, 3)} / ${opt(row.processCpuCachedBrMs, 3)} |`,
    ),
    `| **the four in sequence** | | | | **${ms(t.sequenceUncachedMs)} / ${ms(t.sequenceCachedMs)}** | **${opt(t.sequenceUncachedBrMs)} / ${opt(t.sequenceCachedBrMs)}** | | |`,
    `| a trivial GET (hello world) | | | | ${ms(t.trivialGetMs)} | | | |`,
    '',
  ];
}

/** The import throughput section (bench/import-throughput.ts). */
function renderImport(i: NonNullable<BenchResults['import']>): string[] {
  const head = ['## Import', ''];
  if ('skipped' in i) return [...head, `Skipped: ${i.skipped}.`, ''];
  return [
    ...head,
    `\`muster import\` of a generated document of ${i.games.toLocaleString('en')} games (lists on a fifth of the sides) as canonical JSON, NDJSON and CSV, and of the same events as pairing-app exports (\`bcp\`, one folder per event, no lists), each run a child process into a fresh SQLite file or PostgreSQL schema; NDJSON is imported a second time, unchanged. ` +
      'Throughput is per game and streamed formats go in batches of 20,000 games, so the rate depends little on the size (`--import-games`; `bench/import-throughput.ts --games N` alone); "process" counts the whole command, start-up and migrations included (about 2 s), "import" the time the command reports for reading, validating and writing. ' +
      'Targets: SQLite >= 20,000 games/s, PostgreSQL >= 10,000 games/s, an unchanged re-import cheaper than the first.',
    '',
    '| format | backend | run | games | process s | games/s | import s | games/s in the import | peak RSS MiB | file MiB | exit |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...i.runs.map(
      (run) =>
        `| ${run.format} | ${run.backend} | ${run.reimport ? 're-import (unchanged)' : 'first import'} | ${run.games.toLocaleString('en')} | ${run.seconds.toFixed(1)} | ${run.gamesPerSecond.toLocaleString('en')} | ${run.importSeconds?.toFixed(1) ?? '?'} | ${run.importGamesPerSecond?.toLocaleString('en') ?? '?'} | ${run.peakRssMiB ?? '?'} | ${run.fileMiB} | ${run.exitCode} |`,
    ),
    '',
  ];
}

/** Bursts of expensive requests and when cheap ones answered again (bench-burst.ts). */
function renderBurst(runs: NonNullable<BenchResults['burst']>): string[] {
  const outcomes = (o: Record<string, number>) =>
    Object.entries(o)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${n} × ${k}`)
      .join(', ');
  const deadline = runs[0]?.bursts[0]?.deadlineMs ?? 0;
  return [
    '## Bursts of expensive requests (burst section)',
    '',
    `The service's request deadline of ${s(deadline)}. A burst sends rankings with Glicko-2 parameters never asked before (seconds of work each at a million games), all at once; beside it a cheap uncached faction-stats request every 100 ms and health every 20 ms. "Cheap answer again" is the time from the burst's start after which every cheap request answered 200 within 1 s (target: under 2 s after the burst's own deadline).`,
    '',
    '| engine threads | burst | its answers | last answered | cheap sent / not answered (their answers) | cheap answer again | after the deadline | cheap p50 / max during | health longest wait | health statuses |',
    '|---:|---:|---|---:|---:|---:|---:|---:|---:|---|',
    ...runs.flatMap(({ threads, bursts }) =>
      bursts.map(
        (x) =>
          `| ${threads} | ${x.size} | ${outcomes(x.outcomes)} | ${s(x.burstAnsweredMs)} | ${x.cheapSent} / ${x.cheapFailed} (${outcomes(x.cheapOutcomes)}) | ${s(x.cheapRecoveredMs)} | ${s(x.cheapRecoveredAfterDeadlineMs)} | ${ms(x.cheapP50Ms, 0)} / ${ms(x.cheapMaxMs, 0)} ms | ${ms(x.healthMaxWaitMs, 0)} ms | ${outcomes(x.healthStatuses)} |`,
      ),
    ),
    '',
  ];
}

/** Idle connections held while health is probed (bench-sockets.ts). */
function renderSockets(x: NonNullable<BenchResults['sockets']>): string[] {
  return [
    '## Idle connections (sockets section)',
    '',
    `${x.asked.toLocaleString('en')} keep-alive connections, each after one \`GET /api/health\`, held idle from two client processes over ${Math.ceil(x.asked / 200)} loopback addresses (200 each), against a server with MUSTER_MAX_CONNECTIONS ${x.maxConnections.toLocaleString('en')} and MUSTER_MAX_CONNECTIONS_PER_CLIENT ${x.maxConnectionsPerClient}; meanwhile health on a new connection every 100 ms.`,
    '',
    '| connections asked | answered 200 | refused or cut before an answer | closed by the server to make room | health probes | health failures | slowest health |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${x.asked} | ${x.opened} | ${x.failed} | ${x.closedByServer} | ${x.healthProbes} | ${x.healthFailures} | ${ms(x.healthMaxMs, 0)} ms |`,
    '',
  ];
}

/** The joint model's engine calls (bench/bench-strength.ts), each against the run's baseline. */
function renderStrength(x: NonNullable<BenchResults['strength']>): string[] {
  const base = x.rows[0].medianMs;
  return [
    '## The joint model (strength section)',
    '',
    `Engine calls on system \`${x.system}\`, CPU milliseconds of the engine's one thread: the first call on the snapshot (it fits the model, or runs the system's rolling backtest) and the median of the calls after it (cached per snapshot), against faction-stats on all games as this run's baseline. Targets at 1,000,000 games: faction-strength and forecast medians under 20 ms; forecast-accuracy over a year under 2 s uncached, cached after.`,
    '',
    '| call | first ms | median ms | runs | median / baseline |',
    '|---|---:|---:|---:|---:|',
    ...x.rows.map(
      (r) =>
        `| ${r.call} | ${ms(r.firstMs, 1)} | ${ms(r.medianMs)} | ${r.runs} | ${(r.medianMs / base).toFixed(1)}x |`,
    ),
    '',
  ];
}

/** The pairing draft (bench/bench-pairing.ts), each row against the 6-player baseline. */
function renderPairing(x: NonNullable<BenchResults['pairing']>): string[] {
  const base = x.rows[0].cpuMedianMs;
  return [
    '## The pairing draft (pairing section)',
    '',
    "The defender-attacker draft solved exactly on random 0-20 matrices (the same each run), CPU milliseconds of one thread and wall milliseconds, against the 6-player draft from nothing as this run's baseline. Target: the 8-player draft from nothing under 1 s on one core. The last row is the event projection's simulation (bench/bench-projection.ts): target under 300 ms on one core.",
    '',
    '| call | CPU median ms | CPU max ms | wall median ms | runs | CPU median / baseline |',
    '|---|---:|---:|---:|---:|---:|',
    ...x.rows.map(
      (r) =>
        `| ${r.call} | ${ms(r.cpuMedianMs, 1)} | ${ms(r.cpuMaxMs, 1)} | ${ms(r.wallMedianMs, 1)} | ${r.runs} | ${(r.cpuMedianMs / base).toFixed(1)}x |`,
    ),
    '',
  ];
}
