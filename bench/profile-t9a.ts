/**
 * Where an uncached answer's CPU goes (docs/architecture.md#where-an-answers-cpu-goes):
 * `node bench/profile-t9a.ts --db FILE [--out DIR] [--runs 200] [--rounds 3]
 * [--profile] [--threads 1] [--routes a,b]` starts `muster serve` on FILE (a SQLite store with the T9A set
 * imported) with one serving thread and one engine thread (MUSTER_THREADS=1, or as --threads says), no response cache and its logging as
 * served, then sends `runs` requests of each route one after another on one keep-alive
 * connection with a browser's Accept-Encoding: GET /api/health first as the baseline, then the
 * T9A window's four answers. It prints the whole process's CPU per request of each (from
 * /proc/PID/stat, every thread) for each round and their medians. With --profile the server
 * runs under `node --cpu-prof` (every thread writes a profile into DIR) and each thread's
 * samples are split by route and by kind of work (bench/profile-split.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_RATE_LIMIT_ENV } from './bench-config.ts';
import { splitProfiles } from './profile-split.ts';
import type { Segment } from './profile-split.ts';

const REPO = resolve(import.meta.dirname, '..');
const ORIGIN = 'http://localhost:8080';
const WINDOW = { from: '2026-01-01', to: '2026-03-31', minParticipants: 8 };
const ALL_ROUTES = ['health', 'faction-stats', 'army-matchup', 'scenario-stats', 'item-use-stats'];
const BROWSER = 'gzip, deflate, br, zstd';
/** Each thread's CPU so far by its name (proc(5) task/TID/comm), milliseconds. */
function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const ms = processCpuMs(`${pid}/task/${tid}`);
      out.set(name, (out.get(name) ?? 0) + ms);
    } catch {
      // A thread that ended between the listing and the reading.
    }
  }
  return out;
}

/** The kernel's clock ticks a second (getconf CLK_TCK; 100 on Linux). */
const TICK_MS = 10;

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    out: { type: 'string', default: join(REPO, 'test-artifacts', 'profile-t9a') },
    runs: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    profile: { type: 'boolean', default: false },
    // MUSTER_THREADS: 1, one serving thread and one engine thread; 2 or more, server threads.
    threads: { type: 'string', default: '1' },
    // Only these routes, comma-separated (health is always the first, as the floor).
    routes: { type: 'string', default: '' },
    // Node or V8 flags for the server (--node-flags '--max-semi-space-size=32').
    'node-flags': { type: 'string', default: '' },
  },
});
if (values.db === undefined) throw new Error('--db FILE: a SQLite store with the T9A set');
const asked = values.routes.split(',').filter((r) => r !== '');
const ROUTES = asked.length === 0 ? ALL_ROUTES : ['health', ...asked];
const runs = Number(values.runs);
const rounds = Number(values.rounds);
mkdirSync(values.out, { recursive: true });
// An earlier run's profiles would be split with this run's segments.
for (const f of readdirSync(values.out)) if (f.endsWith('.cpuprofile')) rmSync(join(values.out, f));

/** The server process's CPU so far, milliseconds, every thread (proc(5): utime + stime). */
function processCpuMs(pid: number | string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** `muster serve` as served, started under the profiler when asked; its address once it listens. */
function startServe(): Promise<{ pid: number; base: string; stop: () => Promise<void> }> {
  const flags = values.profile
    ? ['--cpu-prof', `--cpu-prof-dir=${values.out}`, '--cpu-prof-interval=250']
    : [];
  flags.push(...values['node-flags'].split(' ').filter((f) => f !== ''));
  const child = spawn(process.execPath, [...flags, join(REPO, 'bin', 'muster.js'), 'serve'], {
    env: {
      ...process.env,
      ...BENCH_RATE_LIMIT_ENV,
      MUSTER_DATABASE_URL: values.db,
      MUSTER_THREADS: values.threads,
      MUSTER_RESPONSE_CACHE_MB: '0',
      MUSTER_PORT: '0',
      MUSTER_ALLOWED_ORIGINS: ORIGIN,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let text = '';
  return new Promise((done, fail) => {
    // The log is read to its end, as a terminal or a collector would.
    child.stderr!.on('data', () => {});
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(text);
      if (match === null) return;
      text = '';
      done({
        pid: child.pid!,
        base: match[1],
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    void exited.then(() => fail(new Error('muster serve exited before listening')));
  });
}

/** One request on the keep-alive agent, read to its end. */
function send(agent: http.Agent, base: string, route: string): Promise<void> {
  const url = new URL(base);
  const post = route !== 'health';
  return new Promise((done, fail) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        agent,
        path: `/api/${route}`,
        method: post ? 'POST' : 'GET',
        headers: {
          'accept-encoding': BROWSER,
          ...(post ? { origin: ORIGIN, 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        response.on('data', () => {});
        response.on('end', () =>
          response.statusCode === 200
            ? done()
            : fail(new Error(`${route}: ${response.statusCode}`)),
        );
      },
    );
    request.on('error', fail);
    request.end(post ? JSON.stringify(WINDOW) : undefined);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServe();
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const perRequest = new Map<string, number[]>(ROUTES.map((r) => [r, []]));
/** CPU ms per request by thread name, added over the rounds. */
const perThread = new Map<string, Map<string, number>>(ROUTES.map((r) => [r, new Map()]));
const segments: Segment[] = [];
try {
  for (let round = 0; round < rounds; round++) {
    for (const route of ROUTES) {
      for (let i = 0; i < 10; i++) await send(agent, server.base, route);
      const start = monotonicUs();
      const before = processCpuMs(server.pid);
      const threadsBefore = threadCpuMs(server.pid);
      for (let i = 0; i < runs; i++) await send(agent, server.base, route);
      const after = processCpuMs(server.pid);
      const sums = perThread.get(route)!;
      for (const [name, ms] of threadCpuMs(server.pid))
        sums.set(
          name,
          (sums.get(name) ?? 0) + (ms - (threadsBefore.get(name) ?? 0)) / runs / rounds,
        );
      segments.push({ name: route, startUs: start, endUs: monotonicUs(), requests: runs });
      perRequest.get(route)!.push((after - before) / runs);
    }
    const line = ROUTES.map((r) => `${r} ${perRequest.get(r)!.at(-1)!.toFixed(2)}`).join(', ');
    console.log(`round ${round + 1}: process CPU ms/request: ${line}`);
  }
} finally {
  agent.destroy();
  await server.stop();
}
const medians = ROUTES.map((r) => `${r} ${median(perRequest.get(r)!).toFixed(2)}`).join(', ');
console.log(`medians of ${rounds} rounds of ${runs}: ${medians}`);
console.log('mean CPU ms per request by thread name:');
for (const [route, sums] of perThread) {
  const line = [...sums].filter(([, ms]) => ms > 0).map(([n, ms]) => `${n} ${ms.toFixed(3)}`);
  console.log(`  ${route}: ${line.join(', ')}`);
}
writeFileSync(join(values.out, 'segments.json'), JSON.stringify(segments));
if (values.profile) {
  const files = readdirSync(values.out)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(values.out, f));
  console.log(splitProfiles(files, segments));
}
