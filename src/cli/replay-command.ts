/**
 * `muster replay EVENT_FILE --every 10s` (docs/operations.md#replaying-an-event): plays a
 * finished event into the store round by round, for demonstrations and tests. Every step is an
 * ordinary import, so the data version moves and a running `muster serve` picks it up and tells
 * its live streams. SIGINT or SIGTERM stops it between rounds, never inside an import.
 */
import { importCanonical } from '../ingest/import-canonical.ts';
import { decodeUtf8, readFileBounded } from '../ingest/input-text.ts';
import { pickReplayEvent, readReplayDocument, replaySteps } from '../ingest/replay-rounds.ts';
import { eventIsStored } from '../store/read-known.ts';
import type { Store } from '../store/store.ts';
import type { CliIo } from './cli-io.ts';
import { printReport } from './print-report.ts';
import { signalled } from './stop-signal.ts';

/** The bounds of --every: quick enough for a test, slow enough for a day's demonstration. */
export const REPLAY_EVERY_MS = { min: 100, max: 3_600_000, default: 10_000 } as const;

/** An event file is one event with its reference data: far below an import's record limit. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `--every`'s text (`500ms`, `10s`, `2m`, `1h`; a bare number is seconds) in ms, or null. */
export function parseEvery(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (match === null) return null;
  const ms = Number(match[1]) * UNITS[match[2] ?? 's'];
  return ms >= REPLAY_EVERY_MS.min && ms <= REPLAY_EVERY_MS.max ? ms : null;
}

export interface ReplayOptions {
  readonly everyMs: number;
  /** The event to play when the file holds several with games. */
  readonly event?: string;
  /** Resolves to stop between rounds; default: the first SIGINT or SIGTERM. */
  readonly stop?: Promise<void>;
}

/** Waits `ms`, or less when `stop` comes first; true when it was stopped. */
function pause(ms: number, stop: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    stop.then(() => true),
  ]).finally(() => clearTimeout(timer));
}

/** Plays the event of `file` into `store` round by round; resolves to the exit code. */
export async function replayEvent(
  store: Store,
  file: string,
  options: ReplayOptions,
  io: CliIo,
): Promise<number> {
  const doc = readReplayDocument(decodeUtf8(await readFileBounded(file, MAX_FILE_BYTES)), file);
  const event = pickReplayEvent(doc, options.event);
  const steps = replaySteps(doc, event);
  if (await eventIsStored(store, event.id)) {
    // An import never deletes a game, so rounds already played would stay played.
    io.err(
      `muster replay: the store already holds event "${event.id}"; replay it into a store without it`,
    );
    return 1;
  }
  let stopped = false;
  const stop = (options.stop ?? signalled(io, 'stopping before the next round')).then(() => {
    stopped = true;
  });
  const last = steps.length - 1;
  io.out(
    `replaying "${event.name}" (${event.id}): ${last} rounds, one every ${options.everyMs} ms`,
  );
  for (const [i, step] of steps.entries()) {
    if (i > 0 && (stopped || (await pause(options.everyMs, stop)))) {
      io.out(`stopped: the event stays with round ${step.played} paired and not played`);
      return 0;
    }
    const report = await importCanonical(store, step.document, {
      source: `replay ${file} (${step.paired === null ? 'final' : `round ${step.paired} paired`})`,
    });
    const done = step.played === 0 ? 'nothing played' : `round ${step.played} played`;
    io.out(
      step.paired === null
        ? `${done}: the event is finished (data version ${report.dataVersion})`
        : `${done}, round ${step.paired} paired (data version ${report.dataVersion})`,
    );
    if (report.rejects.length > 0) {
      // A later round would build on a round that is not there.
      printReport(report, io.out);
      io.err('muster replay: the import rejected records; stopping');
      return 1;
    }
  }
  return 0;
}
