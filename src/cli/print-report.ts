/**
 * Prints an import report as a person reads it: one line per reject (a reason shared by several
 * records, such as an unresolvable reference, is one line with its count), then the summary
 * (docs/import-formats.md#rejects-and-replay).
 */
import type { Reject } from '../domain/import-batch.ts';
import type { ImportReport } from '../ingest/import-types.ts';

interface RejectGroup {
  first: Reject;
  count: number;
}

/** Rejects with the same kind, field and reason, in order of first appearance. */
function groupRejects(rejects: readonly Reject[]): RejectGroup[] {
  const groups = new Map<string, RejectGroup>();
  for (const r of rejects) {
    const key = `${r.kind}\u0000${r.field ?? ''}\u0000${r.reason}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { first: r, count: 1 });
    else group.count++;
  }
  return [...groups.values()];
}

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
  const groups = groupRejects(report.rejects);
  const shown = groups.slice(0, maxRejects);
  for (const g of shown) out(rejectLine(g));
  if (groups.length > shown.length) {
    const more = groups.slice(shown.length).reduce((n, g) => n + g.count, 0);
    out(`… and ${more} more rejects (all kept in the rejects table, import ${report.importId})`);
  }
  const c = report.counts;
  const row = (name: string, x: (typeof c)['events']) =>
    `  ${name.padEnd(8)} ${String(x.imported).padStart(7)} imported ${String(x.updated).padStart(7)} updated ${String(x.unchanged).padStart(7)} unchanged ${String(x.rejected).padStart(7)} rejected`;
  out(
    `import ${report.importId} (${report.format}): ${report.status} in ${(report.durationMs / 1000).toFixed(1)} s, data version ${report.dataVersion}`,
  );
  out(row('events', c.events));
  out(row('players', c.players));
  out(row('games', c.games));
  out(row('lists', c.lists));
  if (report.newSystems.length > 0)
    out(`  new systems: ${report.newSystems.join(', ')} (no score rules: scores taken as given)`);
  if (report.newFactions.length > 0) out(`  new factions: ${report.newFactions.join(', ')}`);
  if (report.derivedIds > 0)
    out(`  ${report.derivedIds} game id(s) derived from tournament and file name (no id_match)`);
  // A file reject with a record (an NDJSON line, a pairing-app entry) took only that part of
  // the file: saying "rejected whole" there would hide that the rest was imported.
  const fileRejects = report.rejects.filter((r) => r.kind === 'file');
  const whole = fileRejects.filter((r) => r.record === null).length;
  const parts = fileRejects.length - whole;
  if (whole > 0)
    out(`  ${whole} file(s) rejected whole (unreadable, or a roster that matched no player)`);
  if (parts > 0)
    out(`  ${parts} line(s) that could not be read rejected alone; the rest of each file was read`);
  for (const note of report.notes) out(`  note: ${note}`);
  if (report.status === 'rejected')
    out('  --strict: the whole batch was refused; nothing was written but the rejects');
}
