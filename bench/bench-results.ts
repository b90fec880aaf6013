/**
 * The figures `npm run bench` records, as bench.ts gathers and bench-report.ts prints them.
 * Every section is optional: `--sections` runs some of them and merges them into the results
 * file of the same size and label, each stamped with when it ran and the machine's load then.
 */
import type {
  LoadResult,
  QuietResult,
  RankingsStallResult,
  ReloadResult,
  ServerInfo,
} from './bench-http.ts';
import type { BurstResult } from './bench-burst.ts';
import type { CostsResult } from './bench-costs.ts';
import type { IdleSocketsResult } from './bench-sockets.ts';
import type { StrengthResult } from './bench-strength.ts';
import type { PairingResult } from './bench-pairing.ts';
import type { T9aWindowResult } from './bench-t9a.ts';
import type { ImportThroughputResult } from './import-throughput.ts';

export const SECTIONS = [
  'data',
  'load',
  'engine',
  'sql',
  'http',
  'reload',
  't9a',
  'import',
  'burst',
  'sockets',
  'strength',
  'costs',
  'pairing',
] as const;
export type SectionName = (typeof SECTIONS)[number];

export interface EngineRow {
  route: string;
  filter: string;
  engineMedianMs: number;
  engineP99Ms: number;
}

export interface SqlRow {
  route: string;
  filter: string;
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

/** When a section ran, for how long, and the machine's 1, 5 and 15 minute load averages then. */
export interface SectionRun {
  startedAt: string;
  ms: number;
  loadAverage: { before: number[]; after: number[] };
}

export interface BenchResults {
  machine: { cpus: number; cpuModel: string; memoryBytes: number; node: string };
  games: number;
  seconds: number;
  /**
   * Seconds of the same load run before each HTTP load and not measured (bench-http.ts); absent
   * in results from before there was one.
   */
  warmUpSeconds?: number;
  /** The sections in these results and when each ran. */
  runs: Partial<Record<SectionName, SectionRun>>;
  /** The store the load, http and reload sections' servers read (absent: SQLite). */
  backend?: 'sqlite' | 'postgres';
  /** Null when the data set was there already. */
  generateMs?: number | null;
  postgres?: { copyMs: number } | { skipped: string };
  /** Servers started and stopped once ready (the load section), one per count of engine threads. */
  servers?: ServerInfo[];
  inThreadLoadMs?: number;
  engine?: EngineRow[];
  sql?: SqlRow[];
  http?: HttpRow[];
  /** The servers the HTTP loads ran against. */
  httpServers?: ServerInfo[];
  /** Health waits with nothing else running: what the machine's load adds by itself. */
  quiet?: QuietResult;
  reload?: ReloadResult;
  /** Health waits while rankings with new parameters compute on the engine thread. */
  rankingsStall?: RankingsStallResult;
  /** The real-data window (bench-t9a.ts), or why it was skipped. */
  t9a?: T9aWindowResult | { skipped: string };
  /** Import throughput (import-throughput.ts) at `games` games, or why it was skipped. */
  import?: { games: number; runs: ImportThroughputResult[] } | { skipped: string };
  /** Bursts of expensive requests, then cheap ones (bench-burst.ts), with the engine threads they ran on. */
  burst?: Array<{ threads: number; bursts: BurstResult[] }>;
  /** Idle keep-alive connections held while health is probed (bench-sockets.ts). */
  /** The joint model's engine calls (bench-strength.ts). */
  strength?: StrengthResult;
  sockets?: IdleSocketsResult & { maxConnections: number; maxConnectionsPerClient: number };
  /** The costliest requests: a CSV page's memory, cancellation, a victim's times (bench-costs.ts). */
  costs?: CostsResult;
  /** The defender-attacker draft solved from nothing and from a history (bench-pairing.ts). */
  pairing?: PairingResult;
}
