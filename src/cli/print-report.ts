/** Prints an import report as a person reads it: one line per reject, then the summary. */
import type { ImportReport } from '../ingest/import-types.ts';

export function printReport(
  report: ImportReport,
  out: (line: string) => void,
  maxRejects = Infinity,
): void {
  const shown = report.rejects.slice(0, maxRejects);
  for (const r of shown) {
    const where = [r.source, r.record, r.field].filter((x) => x !== null && x !== '').join(' · ');
    out(`rejected ${r.kind}: ${where}: ${r.reason}`);
  }
  if (report.rejects.length > shown.length) {
    out(
      `… and ${report.rejects.length - shown.length} more rejects (all kept in the rejects table, import ${report.importId})`,
    );
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
  if (report.newFactions.length > 0) out(`  new factions: ${report.newFactions.join(', ')}`);
  const files = report.rejects.filter((r) => r.kind === 'file').length;
  if (files > 0) out(`  ${files} file(s) could not be read`);
  if (report.status === 'rejected')
    out('  --strict: the whole batch was refused; nothing was written but the rejects');
}
