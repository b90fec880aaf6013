/**
 * The costs section of `npm run bench` (docs/operations.md#limits): what the costliest valid
 * requests cost the service and its other clients. Three measurements, each on a benchmark
 * server of its own:
 * - the peak memory of the server while it answers one page of forecast-accuracy.csv (the
 *   default 10,000 games and the largest, 50,000), its process's RSS high-water mark over its
 *   RSS before (Linux: /proc/PID/clear_refs resets the mark, /proc/PID/status reads it);
 * - the cancellation delay: with one engine thread, a long computation is started and its
 *   client goes away; the time from then until a cheap request, which needs that thread, is
 *   answered, beside the cheap request's time alone;
 * - a victim client's answer times, cheap (faction-stats with a new filter, every 500 ms) and
 *   expensive (a player's page not asked before, one at a time), while another client sends the costliest valid requests
 *   (a player's page by week with Glicko-2 parameters at their bounds, never asked before) at
 *   its full rate, 120 a minute, the default rate limit: with each client's share of the
 *   expensive lane, and without it (as before it had one).
 * Each client has its own loopback address (127.0.0.2 and up), as the service tells clients apart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { startServer } from './bench-http.ts';
import { percentile } from './bench-queries.ts';

type Log = (text: string) => void;

const ORIGIN = 'http://localhost:8080';
/** The default rate limit, 120 requests a minute: the flooder's full rate. */
const FLOOD_PER_SECOND = 2;
/** The victim's pace: a cheap request every this, and this between its player's pages. */
const VICTIM_EVERY_MS = 500;
/** When the cancellation's long computation loses its client, after it was sent. */
const ABANDON_AFTER_MS = 60;

export interface CsvPageMemory {
  limit: number;
  bytes: number;
  ms: number;
  rssBeforeBytes: number;
  /** The server's RSS high-water mark while it answered, less its RSS before. */
  peakDeltaBytes: number;
}

export interface CancellationRow {
  kind: string;
  /** From the client leaving to a cheap request's answer, each try. */
  freeAfterMs: number[];
  /** The cheap request alone (median of 5). */
  cheapAloneMs: number;
  /** Tries whose long computation was answered before its client went away (nothing to cancel). */
  answeredFirst: number;
}

export interface VictimStats {
  sent: number;
  outcomes: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface VictimRun {
  share: boolean;
  threads: number;
  seconds: number;
  flooder: { sent: number; outcomes: Record<string, number> };
  cheap: VictimStats;
  expensive: VictimStats;
}

export interface CostsResult {
  csv: CsvPageMemory[];
  cancellation: CancellationRow[];
  victim: VictimRun[];
}

interface Answer {
  status: string;
  ms: number;
  bytes: number;
}

/**
 * One request from `localAddress`; resolves with its status (and problem type) and time, or
 * `aborted` when `abandonAfterMs` passes first (the socket is destroyed: the client went away).
 */
function request(
  base: string,
  localAddress: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  abandonAfterMs?: number,
): Promise<Answer> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method,
        localAddress,
        agent: false,
        headers: {
          origin: ORIGIN,
          'accept-encoding': 'gzip',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks);
          let status = String(res.statusCode);
          if (res.statusCode !== 200) {
            try {
              const type = (JSON.parse(String(text)) as { type?: string }).type ?? '';
              status += ` ${type.replace('/problems/', '')}`;
            } catch {
              // not a problem document
            }
          }
          resolve({ status, ms: performance.now() - started, bytes: text.length });
        });
      },
    );
    req.on('error', () =>
      resolve({ status: 'aborted', ms: performance.now() - started, bytes: 0 }),
    );
    if (abandonAfterMs !== undefined) setTimeout(() => req.destroy(), abandonAfterMs);
    req.end(payload);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function statsOf(answers: Answer[]): VictimStats {
  const outcomes: Record<string, number> = {};
  for (const a of answers) outcomes[a.status] = (outcomes[a.status] ?? 0) + 1;
  const times = answers.map((a) => a.ms).sort((a, b) => a - b);
  return {
    sent: answers.length,
    outcomes,
    p50Ms: times.length === 0 ? 0 : percentile(times, 50),
    p99Ms: times.length === 0 ? 0 : percentile(times, 99),
    maxMs: times.at(-1) ?? 0,
  };
}

/**
 * A few players' ids, from the rankings as they stand; asked again while the answer is a
 * problem (the first computes the default ratings, which a loaded machine may take past the
 * deadline to do).
 */
async function playerIds(base: string): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(new URL('/api/rankings', base), {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ includeProvisional: true, pageSize: 200 }),
    });
    const text = await response.text();
    if (response.status === 200) {
      const { data } = JSON.parse(text) as { data: { players: { player: { id: string } }[] } };
      return data.players.map((p) => p.player.id);
    }
    if (attempt === 5) throw new Error(`rankings answered ${response.status}: ${text}`);
  }
}

/** A kilobyte figure of the /proc/PID/status field `field`, in bytes. */
function statusBytes(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

async function csvMemory(databaseUrl: string, log: Log): Promise<CsvPageMemory[]> {
  const server = await startServer(databaseUrl, 1);
  try {
    const base = server.info.url;
    // The backtest behind the CSV runs first, unmeasured: a page is what is measured.
    await request(base, '127.0.0.2', 'POST', '/api/forecast-accuracy', {});
    const rows: CsvPageMemory[] = [];
    for (const limit of [10_000, 50_000]) {
      // The first page's bytes come from the uncached port; no answer is kept there.
      await sleep(500);
      writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
      const rssBeforeBytes = statusBytes(server.pid, 'VmRSS');
      const answer = await request(
        base,
        '127.0.0.2',
        'GET',
        `/api/forecast-accuracy.csv?limit=${limit}&offset=${limit}`,
      );
      const peak = statusBytes(server.pid, 'VmHWM');
      rows.push({
        limit,
        bytes: answer.bytes,
        ms: answer.ms,
        rssBeforeBytes,
        peakDeltaBytes: peak - rssBeforeBytes,
      });
      log(
        `costs: CSV page of ${limit} games (${answer.status}, ${answer.bytes} gzip bytes) peak RSS +${((peak - rssBeforeBytes) / 2 ** 20).toFixed(1)} MiB`,
      );
    }
    return rows;
  } finally {
    await server.stop();
  }
}

async function cancellation(databaseUrl: string, log: Log): Promise<CancellationRow[]> {
  const server = await startServer(databaseUrl, 1);
  try {
    const base = server.info.url;
    const players = await playerIds(base);
    let k = 0;
    const cheap = () =>
      request(base, '127.0.0.3', 'POST', '/api/faction-stats', { minGames: 1000 + k++ });
    const alone: number[] = [];
    for (let i = 0; i < 5; i++) alone.push((await cheap()).ms);
    alone.sort((a, b) => a - b);
    const cheapAloneMs = percentile(alone, 50);
    const kinds: Array<[string, (i: number) => [string, object]]> = [
      [
        "a player's page by week, Glicko-2 at its bounds",
        (i) => [
          '/api/rankings',
          {
            player: players[i % players.length],
            glicko2: {
              period: 'week',
              tau: 4.9 - i / 1000,
              initialRd: 999,
              initialVolatility: 0.99,
            },
          },
        ],
      ],
      ['the forecast backtest', () => ['/api/forecast-accuracy', {}]],
      [
        "faction-strength's joint model, a new filter",
        (i) => ['/api/faction-strength', { minGames: 2 + i }],
      ],
    ];
    const rows: CancellationRow[] = [];
    for (const [kind, body] of kinds) {
      const freeAfterMs: number[] = [];
      let answeredFirst = 0;
      for (let i = 0; i < 5; i++) {
        const [path, payload] = body(i);
        const long = request(base, '127.0.0.2', 'POST', path, payload, ABANDON_AFTER_MS);
        await sleep(ABANDON_AFTER_MS);
        const answer = await cheap();
        const outcome = await long;
        freeAfterMs.push(answer.ms);
        if (outcome.status !== 'aborted') answeredFirst++;
        await sleep(200);
      }
      rows.push({ kind, freeAfterMs, cheapAloneMs, answeredFirst });
      log(
        `costs: ${kind} abandoned: a cheap request answered ${freeAfterMs.map((x) => x.toFixed(0)).join(', ')} ms after (alone ${cheapAloneMs.toFixed(0)} ms; ${answeredFirst} answered before abandoned)`,
      );
    }
    return rows;
  } finally {
    await server.stop();
  }
}

async function victim(
  databaseUrl: string,
  threads: number,
  share: boolean,
  seconds: number,
  log: Log,
): Promise<VictimRun> {
  const server = await startServer(databaseUrl, threads, undefined, {
    // The service's own deadline, so that answers that wait too long are its 503s.
    BENCH_REQUEST_TIMEOUT_MS: '10000',
    ...(share ? {} : { BENCH_CLIENT_SHARE: 'off' }),
  });
  try {
    const base = server.info.url;
    const players = await playerIds(base);
    const flooded: Promise<Answer>[] = [];
    const cheap: Promise<Answer>[] = [];
    const expensive: Promise<Answer>[] = [];
    const started = performance.now();
    const flood = (async () => {
      for (let i = 0; performance.now() - started < seconds * 1000; i++) {
        const body = {
          player: players[i % players.length],
          glicko2: {
            period: 'week',
            tau: 4.9 - i / 10_000,
            initialRd: 999,
            initialVolatility: 0.99,
          },
        };
        flooded.push(request(base, '127.0.0.2', 'POST', '/api/rankings', body));
        await sleep(1000 / FLOOD_PER_SECOND);
      }
    })();
    // A moment later, so that the flooder's requests are there first. Cheap requests every
    // VICTIM_EVERY_MS whatever the answers; player pages one at a time, as a reader clicks
    // through them, the next VICTIM_EVERY_MS after the last was answered.
    await sleep(1000);
    const running = () => performance.now() - started < seconds * 1000;
    const cheapLoop = (async () => {
      for (let i = 0; running(); i++) {
        cheap.push(
          request(base, '127.0.0.3', 'POST', '/api/faction-stats', { minGames: 2000 + i }),
        );
        await sleep(VICTIM_EVERY_MS);
      }
    })();
    for (let i = 0; running(); i++) {
      // A player's page with new default-like parameters: what a reader of the dashboard asks.
      const body = {
        player: players[(players.length - 1 - i) % players.length],
        glicko2: { tau: 0.5 + i / 100_000 },
      };
      const answer = request(base, '127.0.0.3', 'POST', '/api/rankings', body);
      expensive.push(answer);
      await answer;
      await sleep(VICTIM_EVERY_MS);
    }
    await cheapLoop;
    await flood;
    const run: VictimRun = {
      share,
      threads,
      seconds,
      flooder: { sent: flooded.length, outcomes: statsOf(await Promise.all(flooded)).outcomes },
      cheap: statsOf(await Promise.all(cheap)),
      expensive: statsOf(await Promise.all(expensive)),
    };
    log(
      `costs: victim with ${threads} thread(s), ${share ? 'with' : 'without'} a client's share: cheap p99 ${run.cheap.p99Ms.toFixed(0)} ms ${JSON.stringify(run.cheap.outcomes)}, expensive p99 ${run.expensive.p99Ms.toFixed(0)} ms ${JSON.stringify(run.expensive.outcomes)}; flooder ${JSON.stringify(run.flooder.outcomes)}`,
    );
    return run;
  } finally {
    await server.stop();
  }
}

/** The costs section: the CSV page's memory, the cancellation delay and a victim's answer times. */
export async function costsSection(
  databaseUrl: string,
  threads: number,
  seconds: number,
  log: Log,
): Promise<CostsResult> {
  const csv = await csvMemory(databaseUrl, log);
  const rows = await cancellation(databaseUrl, log);
  const victims: VictimRun[] = [];
  for (const share of [true, false]) {
    victims.push(await victim(databaseUrl, threads, share, seconds, log));
  }
  return { csv, cancellation: rows, victim: victims };
}

/** The costs section as Markdown (bench-report.ts). */
export function renderCosts(x: CostsResult): string[] {
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const outcomes = (o: Record<string, number>) =>
    Object.entries(o)
      .map(([k, v]) => `${v} × ${k}`)
      .join(', ');
  const stats = (v: VictimStats) =>
    `${ms(v.p50Ms)} / ${ms(v.p99Ms)} / ${ms(v.maxMs)} (${outcomes(v.outcomes)})`;
  return [
    '## The costliest requests (costs section)',
    '',
    "A page of forecast-accuracy.csv, gzip, from a server with one engine thread whose backtest has run: the server process's RSS high-water mark while it answered, over its RSS before.",
    '',
    '| games a page | gzip bytes | took | RSS before | peak over it |',
    '|---:|---:|---:|---:|---:|',
    ...x.csv.map(
      (c) =>
        `| ${c.limit.toLocaleString('en')} | ${c.bytes.toLocaleString('en')} | ${ms(c.ms)} | ${mib(c.rssBeforeBytes)} | ${mib(c.peakDeltaBytes)} |`,
    ),
    '',
    `Cancellation, one engine thread: a long computation is sent and its client goes away ${ABANDON_AFTER_MS} ms later; a cheap request (faction-stats, a new filter) sent then needs the thread, so its time is the cancellation delay plus its own (target: under 100 ms more than alone).`,
    '',
    '| long computation | cheap request answered after (5 tries) | cheap alone | tries answered before abandoned (nothing to cancel) |',
    '|---|---|---:|---:|',
    ...x.cancellation.map(
      (c) =>
        `| ${c.kind} | ${c.freeAfterMs.map(ms).join(', ')} | ${ms(c.cheapAloneMs)} | ${c.answeredFirst ?? '?'} |`,
    ),
    '',
    `A victim client (a cheap request every ${VICTIM_EVERY_MS} ms; player's pages one at a time, each ${VICTIM_EVERY_MS} ms after the last answer) while a flooding client sends the costliest valid requests (a player's page by week with Glicko-2 at its bounds, never asked before) at ${FLOOD_PER_SECOND} a second, the default rate limit's full rate; the service's 10 s deadline. Times are p50 / p99 / max.`,
    '',
    "| client's share | engine threads | seconds | flooder's answers | victim cheap | victim expensive (a player's page not asked before) |",
    '|---|---:|---:|---|---|---|',
    ...x.victim.map(
      (v) =>
        `| ${v.share ? 'on' : 'off (as before)'} | ${v.threads} | ${v.seconds} | ${outcomes(v.flooder.outcomes)} | ${stats(v.cheap)} | ${stats(v.expensive)} |`,
    ),
    '',
  ];
}
