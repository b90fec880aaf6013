/**
 * Download buttons: a table as CSV (src/domain/csv-record.ts, docs/http-api.md#csv) and a chart as PNG (chart-png.ts), each
 * file named for the page and the filter it shows.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CsvValue } from '../csv.ts';
import { safe } from '../csv.ts';

/** The stem of the page shown; a page may narrow it (the compare view adds its windows). */
export const FileStem = createContext('muster');

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "Download CSV" for one table: `name` tells the page's tables apart in the file name. */
export function DownloadCsv({
  name,
  header,
  rows,
}: {
  name?: string;
  header: string[];
  rows: () => CsvValue[][];
}) {
  const stem = useContext(FileStem);
  const file = `${stem}${name ? `-${safe(name)}` : ''}.csv`;
  return (
    <button
      type="button"
      class="download"
      data-file={file}
      onClick={async () => {
        // The writer (csv-stringify, a fifth of the page's script) loads on the first download.
        const { csvDocument } = await import('../../../src/domain/csv-record.ts');
        saveBlob(new Blob([csvDocument(header, rows())], { type: 'text/csv' }), file);
      }}
    >
      Download CSV
    </button>
  );
}

/** The tools row under a hand-written table: its "Download CSV", right-aligned. */
export function TableCsv(props: Parameters<typeof DownloadCsv>[0]) {
  return (
    <div class="table-tools">
      <DownloadCsv {...props} />
    </div>
  );
}

/** "Download PNG" for one chart, drawn on a canvas by `draw`. */
export function DownloadPng({
  name,
  draw,
}: {
  name?: string;
  draw: () => HTMLCanvasElement | null;
}) {
  const stem = useContext(FileStem);
  const file = `${stem}${name ? `-${safe(name)}` : ''}.png`;
  return (
    <button
      type="button"
      class="download"
      data-file={file}
      onClick={() =>
        draw()?.toBlob((blob) => {
          if (blob) saveBlob(blob, file);
        }, 'image/png')
      }
    >
      Download PNG
    </button>
  );
}
