/**
 * The engine thread's part of an uncached answer, step by step
 * (docs/architecture.md#where-an-answers-cpu-goes): `node
 * bench/profile-answer-bytes.ts --db FILE [--runs 200] [--rounds 5]` loads the snapshot of FILE
 * (a SQLite store with the T9A set imported) and, for each of the T9A window's four answers,
 * reads this thread's CPU (process.threadCpuUsage) over `runs` calls of the engine alone, of
 * the engine with the {data, meta} envelope serialised to UTF-8 bytes, and of that compressed
 * in zstd (what a browser is answered in): the differences are what serialisation and
 * compression cost. Prints the medians of the rounds, milliseconds per answer.
 */
import { parseArgs } from 'node:util';
import { benchConfig } from './bench-config.ts';
import { buildAppWithEngine } from '../src/threads/app-with-engine.ts';
import type { Encoding } from '../src/http/content-coding.ts';
import { serialiserSpec } from '../src/http/plugins/serializer.ts';
import { STATS_ROUTES } from '../src/http/routes/index.ts';
import { answerHere } from '../src/http/routes/stats-route.ts';
import { runEngineTask } from '../src/engine/engine-tasks.ts';
import type { EngineTaskName } from '../src/engine/engine-tasks.ts';
import { normaliseCommonFilter } from '../src/engine/filter.ts';
import { SnapshotManager } from '../src/snapshot/snapshot-manager.ts';
import { openStore } from '../src/store/store.ts';

const WINDOW = { from: '2026-01-01', to: '2026-03-31', minParticipants: 8 };
const FOUR = ['faction-stats', 'army-matchup', 'scenario-stats', 'item-use-stats'];

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    runs: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '5' },
  },
});
if (values.db === undefined) throw new Error('--db FILE: a SQLite store with the T9A set');
const runs = Number(values.runs);
const rounds = Number(values.rounds);

/** This thread's CPU per call of `f`, milliseconds, over `runs` calls. */
function cpuPerCall(f: () => unknown): number {
  const before = process.threadCpuUsage();
  for (let i = 0; i < runs; i++) f();
  const spent = process.threadCpuUsage(before);
  return (spent.user + spent.system) / 1000 / runs;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const store = await openStore(`sqlite:${values.db}`);
const snapshots = new SnapshotManager(store, { pollMs: 3_600_000 });
await snapshots.reload();
const config = benchConfig({ MUSTER_RESPONSE_CACHE_MB: '0' });
const app = await buildAppWithEngine({ config, store, snapshots }, { logger: false });
await app.ready();
const snapshot = snapshots.current()!;
const run = runEngineTask as (t: EngineTaskName, s: typeof snapshot, ...a: unknown[]) => unknown;
console.log('| route | engine | + envelope, serialisation, UTF-8 | + zstd | zstd bytes |');
console.log('|---|---:|---:|---:|---:|');
for (const name of FOUR) {
  const route = STATS_ROUTES.find((r) => r.path === `/api/${name}`)!;
  const format = {
    route: route.path,
    serialiser: serialiserSpec(route.response, app.getSchemas(), undefined),
  };
  const argsOf = () => {
    const filter = normaliseCommonFilter(snapshot, route.filterOf(WINDOW as never));
    return route.args(snapshot, filter, WINDOW as never);
  };
  const bytes = (encodings: Encoding[]) =>
    answerHere({ format, encodings }, route.task, snapshot, argsOf());
  const steps = [
    () => run(route.task, snapshot, ...argsOf()),
    () => bytes([]),
    () => bytes(['zstd']),
  ];
  for (const step of steps) for (let i = 0; i < 20; i++) step();
  const cpu: number[][] = steps.map(() => []);
  for (let round = 0; round < rounds; round++)
    steps.forEach((step, i) => cpu[i].push(cpuPerCall(step)));
  const [engine, plain, zstd] = cpu.map(median);
  const size = bytes(['zstd']).encoded[0].bytes.byteLength;
  console.log(
    `| ${name} | ${engine.toFixed(3)} | ${plain.toFixed(3)} | ${zstd.toFixed(3)} | ${size} |`,
  );
}
await app.close();
snapshots.stop();
await store.close();
