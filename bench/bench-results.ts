/** The figures one `npm run bench` run records, as bench.ts gathers and bench-report.ts prints them. */
import type { LoadResult, RankingsStallResult, ReloadResult, ServerInfo } from './bench-http.ts';
import type { T9aWindowResult } from './bench-t9a.ts';
import type { ImportThroughputResult } from './import-throughput.ts';

export interface EngineRow {
  route: string;
  filter: string;
  engineMedianMs: number;
  engineP99Ms: number;
  sqliteMedianMs: number;
  postgresMedianMs: number | null;
}

export interface HttpRow {
  target: string;
  cached: boolean;
  /** Engine threads the server computes on (results before the engine pool: cluster workers). */
  workers: number;
  results: LoadResult[];
}

export interface BenchResults {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memoryBytes: number; node: string };
  games: number;
  seconds: number;
  generateMs: number;
  postgres: { copyMs: number } | { skipped: string };
  inThreadLoadMs: number;
  server: ServerInfo;
  engine: EngineRow[];
  http: HttpRow[];
  reload: ReloadResult;
  /** Health waits while rankings with new parameters compute on the engine thread. */
  rankingsStall: RankingsStallResult;
  /** The real-data window (bench-t9a.ts), or why it was skipped. */
  t9a: T9aWindowResult | { skipped: string };
  /** Import throughput (import-throughput.ts) at `games` games, or why it was skipped. */
  import: { games: number; runs: ImportThroughputResult[] } | { skipped: string };
  totalMs: number;
}
