/**
 * Configuration: read once from MUSTER_* environment variables, validated, frozen.
 * A bad value stops the process with a message naming the variable
 * (docs/operations.md#configuration).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly databaseUrl: string;
  readonly host: string;
  readonly port: number;
  /** Absolute base URL the service is reached at; null means "derive from the request". */
  readonly publicUrl: string | null;
  /**
   * Exact origins and anchored wildcard patterns such as https://*.example.org; when
   * MUSTER_ALLOWED_ORIGINS is unset, the service's own loopback origins (`loopbackOrigins`).
   */
  readonly allowedOrigins: readonly string[];
  /**
   * Whether `allowedOrigins` is the default, which follows the port the service is bound to:
   * with MUSTER_PORT=0 only the bound port is known (`originsForPort`).
   */
  readonly originsFollowPort: boolean;
  readonly allowNoOrigin: boolean;
  readonly redisUrl: string | null;
  readonly logLevel: LogLevel;
  readonly rateLimitMax: number;
  readonly rateLimitWindowMs: number;
  readonly trustProxy: boolean | string;
  readonly requestTimeoutMs: number;
  /** Time to receive a request's headers (Node's headersTimeout); then 408 and close. */
  readonly headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body (Node's requestTimeout). */
  readonly receiveTimeoutMs: number;
  /** On SIGTERM, how long requests are still answered (with Connection: close) before closing. */
  readonly shutdownGraceMs: number;
  readonly snapshotPollMs: number;
  /** Where the built snapshot is kept for the next start (docs/architecture.md#the-snapshot-file). */
  readonly snapshotFile: string | null;
  /** Bytes of serialised answers the response cache may hold per process; 0 turns it off. */
  readonly responseCacheBytes: number;
  /**
   * Threads `muster serve` runs (MUSTER_THREADS, else the former MUSTER_ENGINE_THREADS, else
   * MUSTER_WORKERS); 0 means one per CPU core (docs/operations.md#threads).
   */
  readonly threads: number;
  /** The Prometheus metrics listener's port (MUSTER_METRICS_PORT); null: none. */
  readonly metricsPort: number | null;
  readonly metricsHost: string;
  /** Open connections at once (docs/operations.md#connections); idle ones make room for new. */
  readonly maxConnections: number;
  /** Open connections at once from one client address; 0: no per-client bound. */
  readonly maxConnectionsPerClient: number;
  /** GET /api/live streams open at once from one client address (docs/http-api.md#live). */
  readonly liveStreamsPerClient: number;
  /** How often a live stream with nothing to say sends a heartbeat. */
  readonly liveHeartbeatMs: number;
  /** Bytes a live stream may hold unsent for a reader that does not read before it is dropped. */
  readonly liveBufferBytes: number;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
    this.name = 'ConfigError';
  }
}

/** Every variable Muster reads, with its default and meaning; the README table mirrors this. */
export const CONFIG_VARIABLES = {
  MUSTER_DATABASE_URL: {
    default: './data/muster.db',
    doc: 'SQLite file path (or sqlite:PATH, sqlite::memory:) or postgres://user@host:port/db',
  },
  MUSTER_HOST: { default: '127.0.0.1', doc: 'Interface to listen on' },
  MUSTER_PORT: { default: '8080', doc: 'TCP port (0 picks a free one)' },
  MUSTER_PUBLIC_URL: {
    default: '',
    doc: 'Absolute base URL clients use (OpenAPI servers, api-catalog anchor); default: from the request',
  },
  MUSTER_ALLOWED_ORIGINS: {
    default: '',
    doc: 'Comma-separated origins allowed to POST (exact, or https://*.example.org); default: http://localhost:PORT and http://127.0.0.1:PORT, PORT the one bound',
  },
  MUSTER_ALLOW_NO_ORIGIN: {
    default: 'false',
    doc: 'Accept POSTs without an Origin header (or Origin: null), e.g. server-to-server',
  },
  MUSTER_REDIS_URL: { default: '', doc: 'redis://host:port; shares rate-limit counters' },
  MUSTER_LOG_LEVEL: { default: 'info', doc: 'fatal, error, warn, info, debug, trace or silent' },
  MUSTER_RATE_LIMIT_MAX: { default: '120', doc: 'Requests per client per window' },
  MUSTER_RATE_LIMIT_WINDOW_MS: { default: '60000', doc: 'Rate-limit window in milliseconds' },
  MUSTER_TRUST_PROXY: {
    default: 'false',
    doc: 'true, false, or a comma-separated list of proxy addresses/CIDRs whose X-Forwarded-For is trusted',
  },
  MUSTER_REQUEST_TIMEOUT_MS: { default: '10000', doc: 'Time a request may take before 503' },
  MUSTER_HEADERS_TIMEOUT_MS: {
    default: '10000',
    doc: 'Time a client has to send its request headers before the connection is closed (408)',
  },
  MUSTER_RECEIVE_TIMEOUT_MS: {
    default: '15000',
    doc: 'Time a client has to send a whole request, headers and body, before the connection is closed (408); at least MUSTER_HEADERS_TIMEOUT_MS',
  },
  MUSTER_SHUTDOWN_GRACE_MS: {
    default: '2000',
    doc: 'On SIGTERM, how long requests on connections already accepted are still answered (with Connection: close; new connections are refused at once) before every remaining connection is closed',
  },
  MUSTER_SNAPSHOT_POLL_MS: {
    // One indexed read of one row: four a second cost nothing, and an import is served within
    // a quarter of a second of its commit plus the reload (docs/operations.md#watching-a-folder).
    default: '250',
    doc: 'How often the data version is checked for a snapshot reload',
  },
  MUSTER_SNAPSHOT_FILE: {
    default: '',
    doc: 'Where the built snapshot is kept, so a restart over unchanged data reads it back instead of building it; default: beside a SQLite database file (its path + .snapshot), none for PostgreSQL; off: none',
  },
  MUSTER_RESPONSE_CACHE_MB: {
    default: '64',
    doc: 'Megabytes of serialised answers cached (0 turns the response cache off)',
  },
  MUSTER_METRICS_PORT: {
    default: '',
    doc: 'The TCP port of the Prometheus metrics listener (GET /metrics); unset: no metrics listener, 0 picks a free port',
  },
  MUSTER_METRICS_HOST: {
    default: '127.0.0.1',
    doc: 'The interface the metrics listener binds to',
  },
  MUSTER_THREADS: {
    default: '',
    doc: 'Threads `muster serve` runs, each a whole server on the service port reading its one snapshot; 0 means one per CPU core',
  },
  MUSTER_ENGINE_THREADS: {
    default: '',
    doc: 'The former name of MUSTER_THREADS, still read when that is unset',
  },
  MUSTER_WORKERS: {
    default: '0',
    doc: 'The older name of MUSTER_THREADS, still read when neither is set',
  },
  MUSTER_MAX_CONNECTIONS: {
    default: '',
    doc: "Open connections at once; past it an idle keep-alive connection is closed to make room, and a new one is refused only when none is idle. Default: 80 % of the process's open-files limit less 100, at most 10,000",
  },
  MUSTER_MAX_CONNECTIONS_PER_CLIENT: {
    default: '256',
    doc: 'Open connections at once from one client address (not counted for trusted proxies, MUSTER_TRUST_PROXY), the same way; 0: no per-client bound',
  },
  MUSTER_LIVE_STREAMS_PER_CLIENT: {
    default: '4',
    doc: 'GET /api/live streams open at once from one client address, over the whole service whatever its thread count (not counted for trusted proxies); past it 429 too-many-streams',
  },
  MUSTER_LIVE_HEARTBEAT_MS: {
    default: '15000',
    doc: 'How often a GET /api/live stream with nothing else to send sends a heartbeat comment',
  },
  MUSTER_LIVE_BUFFER_KB: {
    default: '64',
    doc: 'Kilobytes a GET /api/live stream may hold unsent for a client that does not read; past it the stream is closed',
  },
} as const;

export type ConfigVariable = keyof typeof CONFIG_VARIABLES;

/**
 * The snapshot file's path: as given, none for "off", else beside a SQLite database file; a
 * PostgreSQL or in-memory store has no file of its own to sit beside.
 */
function snapshotFile(text: string, databaseUrl: string): string | null {
  if (text.toLowerCase() === 'off') return null;
  if (text !== '') return resolve(text);
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) return null;
  const path = databaseUrl.replace(/^sqlite:/i, '');
  return path === ':memory:' ? null : `${resolve(path)}.snapshot`;
}
type Env = Readonly<Record<string, string | undefined>>;

/** Connections at most by default, whatever the open-files limit. */
const MAX_CONNECTIONS_CAP = 10_000;

/**
 * The process's soft limit of open files (Linux's /proc/self/limits), or null where it cannot
 * be read: each connection holds a file descriptor, and running out of them refuses every new
 * connection, health included.
 */
export function openFilesLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft === undefined || soft === 'unlimited' ? null : Number(soft) || null;
  } catch {
    return null;
  }
}

/** MUSTER_MAX_CONNECTIONS's default: 80 % of the open-files limit less 100 for files and the store, within [64, 10,000]. */
function defaultMaxConnections(): number {
  const limit = openFilesLimit();
  if (limit === null) return MAX_CONNECTIONS_CAP;
  return Math.max(64, Math.min(MAX_CONNECTIONS_CAP, Math.floor(limit * 0.8) - 100));
}

const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

/** MUSTER_THREADS, else its former names MUSTER_ENGINE_THREADS and MUSTER_WORKERS. */
function threadCount(env: Env): number {
  const names: ConfigVariable[] = ['MUSTER_THREADS', 'MUSTER_ENGINE_THREADS'];
  const name = names.find((n) => raw(env, n) !== '');
  return integer(env, name ?? 'MUSTER_WORKERS', 0, 1024);
}

function raw(env: Env, name: ConfigVariable): string {
  const value = env[name];
  return value === undefined || value.trim() === '' ? CONFIG_VARIABLES[name].default : value.trim();
}

function integer(env: Env, name: ConfigVariable, min: number, max: number): number {
  const text = raw(env, name);
  if (!/^\d+$/.test(text)) throw new ConfigError(name, `expected a whole number, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function boolean(env: Env, name: ConfigVariable): boolean {
  const text = raw(env, name).toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no'].includes(text)) return false;
  throw new ConfigError(name, `expected true or false, got "${text}"`);
}

function absoluteUrl(name: ConfigVariable, text: string, protocols: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(name, `not an absolute URL: "${text}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL, got "${text}"`);
  }
  return text;
}

/** The origins a browser on this machine sends for pages served on `port` (RFC 6454 §6.2). */
export function loopbackOrigins(port: number): string[] {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}

/**
 * The origins allowed to POST once the service is bound to `boundPort`: the configured ones,
 * or by default the loopback origins of the port actually bound (MUSTER_PORT=0 picks one).
 */
export function originsForPort(config: Config, boundPort: number): readonly string[] {
  return config.originsFollowPort ? loopbackOrigins(boundPort) : config.allowedOrigins;
}

/** An origin is scheme://host[:port] with no path; a wildcard is only allowed as the first label. */
export function parseOriginPattern(text: string): string {
  const pattern = text.trim().replace(/\/$/, '');
  const match = /^(https?):\/\/(\*\.)?([a-z0-9.-]+|\[[0-9a-f:]+\])(:\d{1,5})?$/i.exec(pattern);
  if (!match) throw new Error(`"${text}" is not an origin (scheme://host[:port])`);
  const host = match[3];
  if (match[2] && (!host.includes('.') || host.startsWith('.') || host.endsWith('.'))) {
    throw new Error(`"${text}": a wildcard needs a registrable domain after "*."`);
  }
  return pattern.toLowerCase();
}

/** Parses and freezes the configuration (docs/operations.md#configuration). */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'MUSTER_PORT', 0, 65535);
  const publicUrlText = raw(env, 'MUSTER_PUBLIC_URL');
  const publicUrl =
    publicUrlText === ''
      ? null
      : absoluteUrl('MUSTER_PUBLIC_URL', publicUrlText, ['http:', 'https:']).replace(/\/+$/, '');
  const redisText = raw(env, 'MUSTER_REDIS_URL');
  const redisUrl =
    redisText === '' ? null : absoluteUrl('MUSTER_REDIS_URL', redisText, ['redis:', 'rediss:']);
  const logLevel = raw(env, 'MUSTER_LOG_LEVEL').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('MUSTER_LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}`);
  }
  const originsText = raw(env, 'MUSTER_ALLOWED_ORIGINS');
  let allowedOrigins: string[];
  try {
    allowedOrigins =
      originsText === ''
        ? loopbackOrigins(port)
        : originsText
            .split(',')
            .map((o) => o.trim())
            .filter((o) => o !== '')
            .map(parseOriginPattern);
  } catch (error) {
    throw new ConfigError('MUSTER_ALLOWED_ORIGINS', (error as Error).message);
  }
  const trustText = raw(env, 'MUSTER_TRUST_PROXY');
  const trustLower = trustText.toLowerCase();
  const trustProxy =
    trustLower === 'true' ? true : trustLower === 'false' || trustLower === '' ? false : trustText;
  const databaseUrl = raw(env, 'MUSTER_DATABASE_URL');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(databaseUrl) && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new ConfigError(
      'MUSTER_DATABASE_URL',
      `unsupported scheme in "${databaseUrl}"; use a file path, sqlite:PATH or postgres://`,
    );
  }
  const headersTimeoutMs = integer(env, 'MUSTER_HEADERS_TIMEOUT_MS', 100, 600_000);
  const receiveTimeoutMs = integer(env, 'MUSTER_RECEIVE_TIMEOUT_MS', 100, 600_000);
  // Node refuses a headers timeout longer than the whole-request timeout.
  if (receiveTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      'MUSTER_RECEIVE_TIMEOUT_MS',
      `must be at least MUSTER_HEADERS_TIMEOUT_MS (${headersTimeoutMs}), got ${receiveTimeoutMs}`,
    );
  }
  return Object.freeze({
    databaseUrl,
    host: raw(env, 'MUSTER_HOST'),
    port,
    publicUrl,
    allowedOrigins: Object.freeze(allowedOrigins),
    originsFollowPort: originsText === '',
    allowNoOrigin: boolean(env, 'MUSTER_ALLOW_NO_ORIGIN'),
    redisUrl,
    logLevel,
    rateLimitMax: integer(env, 'MUSTER_RATE_LIMIT_MAX', 1, 1_000_000),
    rateLimitWindowMs: integer(env, 'MUSTER_RATE_LIMIT_WINDOW_MS', 1000, 86_400_000),
    trustProxy,
    requestTimeoutMs: integer(env, 'MUSTER_REQUEST_TIMEOUT_MS', 100, 600_000),
    headersTimeoutMs,
    receiveTimeoutMs,
    shutdownGraceMs: integer(env, 'MUSTER_SHUTDOWN_GRACE_MS', 0, 600_000),
    snapshotPollMs: integer(env, 'MUSTER_SNAPSHOT_POLL_MS', 100, 3_600_000),
    snapshotFile: snapshotFile(raw(env, 'MUSTER_SNAPSHOT_FILE'), databaseUrl),
    responseCacheBytes: integer(env, 'MUSTER_RESPONSE_CACHE_MB', 0, 65_536) * 1024 * 1024,
    metricsPort:
      raw(env, 'MUSTER_METRICS_PORT') === '' ? null : integer(env, 'MUSTER_METRICS_PORT', 0, 65535),
    metricsHost: raw(env, 'MUSTER_METRICS_HOST'),
    threads: threadCount(env),
    maxConnections:
      raw(env, 'MUSTER_MAX_CONNECTIONS') === ''
        ? defaultMaxConnections()
        : integer(env, 'MUSTER_MAX_CONNECTIONS', 1, 1_000_000),
    maxConnectionsPerClient: integer(env, 'MUSTER_MAX_CONNECTIONS_PER_CLIENT', 0, 1_000_000),
    liveStreamsPerClient: integer(env, 'MUSTER_LIVE_STREAMS_PER_CLIENT', 1, 1_000_000),
    liveHeartbeatMs: integer(env, 'MUSTER_LIVE_HEARTBEAT_MS', 100, 3_600_000),
    liveBufferBytes: integer(env, 'MUSTER_LIVE_BUFFER_KB', 1, 1_048_576) * 1024,
  });
}
