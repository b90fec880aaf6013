/**
 * Prints an import report as a person reads it: one line per reject (a reason shared by several
 * records, such as an unresolvable reference, is one line with its count), then the summary
 * (docs/import-formats.md#rejects-and-replay).
 */
import type { ImportReport, RejectGroup } from '../ingest/import-types.ts';

function rejectLine({ first: r, count }: RejectGroup): string {
  const where = [r.source, r.record, r.field].filter((x) => x !== null && x !== '').join(' · ');
  if (count === 1) return `rejected ${r.kind}: ${where}: ${r.reason}`;
  const field = r.field ? `${r.field}: ` : '';
  return `rejected ${count} ${r.kind}s: ${field}${r.reason} (first: ${[r.source, r.record].filter((x) => x !== null && x !== '').join(' · ')})`;
}

/** Writes the report's lines through `out`, at most `maxRejects` reject lines. */
export function printReport(
  report: ImportReport,
  out: (line: string) => void,
  maxRejects = Infinity,
): void {
  for (const { importId, summary } of report.interrupted)
    out(`note: import ${importId} was marked interrupted: ${summary}`);
  const shown = report.rejectGroups.slice(0, maxRejects);
  for (const g of shown) out(rejectLine(g));
  // The groups are exact counts, but bounded: rejects past them are in the total only.
  const more = report.rejectCount - shown.reduce((n, g) => n + g.count, 0);
  if (more > 0) {
    out(
      `… and ${more.toLocaleString('en')} more rejects (all kept in the rejects table: muster rejects --import ${report.importId})`,
    );
  }
  const c = report.counts;
  const row = (name: string, x: (typeof c)['events']) =>
    `  ${name.padEnd(8)} ${String(x.imported).padStart(7)} imported ${String(x.updated).padStart(7)} updated ${String(x.unchanged).padStart(7)} unchanged ${String(x.rejected).padStart(7)} rejected`;
  out(
    `import ${report.importId} (${report.format}): ${report.status} in ${(report.durationMs / 1000).toFixed(1)} s, data version ${report.dataVersion}, ${report.batches} batch(es)`,
  );
  out(row('events', c.events));
  out(row('players', c.players));
  out(row('games', c.games));
  out(row('lists', c.lists));
  // Only a canonical document carries merges: the row is left out where there were none.
  if (Object.values(c.merges).some((n) => n > 0)) out(row('merges', c.merges));
  if (report.rejectCount > 0)
    out(
      `  rejects  ${String(report.rejectCount).padStart(7)} stored with their records (muster rejects --import ${report.importId})`,
    );
  if (report.newSystems.length > 0)
    out(`  new systems: ${report.newSystems.join(', ')} (no score rules: scores taken as given)`);
  if (report.newFactions.length > 0) out(`  new factions: ${report.newFactions.join(', ')}`);
  if (report.derivedIds > 0)
    out(`  ${report.derivedIds} game id(s) derived from tournament and file name (no id_match)`);
  // A file reject with a record (an NDJSON line, a pairing-app entry) took only that part of
  // the file: saying "rejected whole" there would hide that the rest was imported.
  const { whole, parts } = report.fileRejects;
  if (whole > 0)
    out(`  ${whole} file(s) rejected whole (unreadable, or a roster that matched no player)`);
  if (parts > 0)
    out(`  ${parts} line(s) that could not be read rejected alone; the rest of each file was read`);
  for (const note of report.notes) out(`  note: ${note}`);
  if (report.status === 'rejected')
    out('  --strict: the whole batch was refused; nothing was written but the rejects');
}
