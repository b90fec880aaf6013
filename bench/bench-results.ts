/** The figures one `npm run bench` run records, as bench.ts gathers and bench-report.ts prints them. */
import type { LoadResult, ReloadResult, ServerInfo } from './bench-http.ts';

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
  workers: number;
  engine: EngineRow[];
  http: HttpRow[];
  reload: ReloadResult;
  import: unknown;
  totalMs: number;
}
