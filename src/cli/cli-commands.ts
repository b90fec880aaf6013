/**
 * Pieces of the command line kept apart from its dispatch: the export command and the import
 * progress line (docs/import-formats.md#ndjson).
 */
import { isRealDate } from '../domain/calendar-day.ts';
import type { ImportProgress } from '../ingest/run-import.ts';
import type { Store } from '../store/store.ts';
import { exportStore } from './export-store.ts';
import type { CliIo } from './cli-io.ts';

/** Prints a progress line on a terminal once an import has run a couple of seconds. */
export function progressLine(io: CliIo, quietMs = 2_000) {
  const started = performance.now();
  let shown = false;
  const show = (line: string) => {
    if (io.progress === undefined || performance.now() - started < quietMs) return;
    io.progress(line);
    shown = true;
  };
  return {
    note: (message: string) => show(`… ${message}`),
    batch: (p: ImportProgress) => {
      const seconds = (performance.now() - started) / 1000;
      const rate = Math.round(p.read / Math.max(seconds, 0.001));
      show(
        `… ${p.read.toLocaleString('en')} records read, ${p.written.toLocaleString('en')} games written, ${p.rejected.toLocaleString('en')} rejected, ${rate.toLocaleString('en')}/s`,
      );
    },
    done: () => {
      if (shown) io.progress?.('');
    },
  };
}

/** `muster export`: validates the selection and streams the store to the output. */
export async function runExport(
  store: Store,
  values: { system?: unknown; from?: unknown; to?: unknown },
  io: CliIo,
): Promise<number> {
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const selection = { system: text(values.system), from: text(values.from), to: text(values.to) };
  for (const key of ['from', 'to'] as const) {
    const day = selection[key];
    if (day !== undefined && !isRealDate(day)) {
      io.err(`muster export: --${key} takes a calendar date YYYY-MM-DD, got "${day}"`);
      return 2;
    }
  }
  const write = io.write ?? (async (line: string) => io.out(line));
  const counts = await exportStore(store, write, {
    ...(selection.system !== undefined ? { system: selection.system } : {}),
    ...(selection.from !== undefined ? { from: selection.from } : {}),
    ...(selection.to !== undefined ? { to: selection.to } : {}),
  });
  io.err(`exported ${counts.events} events, ${counts.games} games in ${counts.lines} lines`);
  return 0;
}
