/**
 * A table whose column headers sort it (aria-sort says how), with muted and highlighted rows, a
 * "?" beside each defined heading, and a CSV download of exactly the rows shown, in their order.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { DefinitionKey } from '../definitions.ts';
import { Define } from './define.tsx';
import type { CsvValue } from '../csv.ts';
import { DownloadCsv } from './download.tsx';

/** One CSV column: its header and the raw value of a row. */
export type CsvField<R> = readonly [header: string, value: (row: R) => CsvValue];

export interface Column<R> {
  key: string;
  label: ComponentChildren;
  /** Sort value; absent: the column does not sort. */
  sort?: (row: R) => number | string | null;
  render: (row: R) => ComponentChildren;
  numeric?: boolean;
  title?: string;
  /** Left out on a narrow screen, so the columns that matter fit 390 px. */
  optional?: boolean;
  /** Its definition (web/src/definitions.ts), opened by a "?" beside the heading. */
  define?: DefinitionKey;
  /** Its CSV columns (raw numbers; an interval as low and high); default: the sort value. */
  csv?: ReadonlyArray<CsvField<R>>;
}

function cellClass<R>(c: Column<R>): string | undefined {
  return [c.numeric ? 'num' : '', c.optional ? 'opt' : ''].filter(Boolean).join(' ') || undefined;
}

/** The CSV columns of a table: each column's own, else its sort value under its key. */
export function csvFields<R>(columns: Array<Column<R>>): Array<CsvField<R>> {
  return columns.flatMap((c): Array<CsvField<R>> => {
    if (c.csv) return [...c.csv];
    const sort = c.sort;
    return sort ? [[c.key, (r: R) => sort(r)] as const] : [];
  });
}

function sortRows<R>(
  rows: R[],
  column: Column<R> | undefined,
  sort: { desc: boolean } | null,
): R[] {
  const by = column?.sort;
  if (by === undefined || sort === null) return rows;
  return [...rows].sort((a, b) => {
    const x = by(a);
    const y = by(b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    const order = x < y ? -1 : 1;
    return sort.desc ? -order : order;
  });
}

export function SortableTable<R>({
  caption,
  columns,
  rows,
  rowKey,
  muted,
  highlighted,
  initialSort,
  name,
  limit,
}: {
  caption: string;
  columns: Array<Column<R>>;
  rows: R[];
  rowKey: (row: R) => string;
  muted?: (row: R) => boolean;
  /** Rows that stand out (bold): e.g. a change whose interval excludes 0. */
  highlighted?: (row: R) => boolean;
  initialSort?: { key: string; desc: boolean };
  /** Tells the page's tables apart in the CSV's file name. */
  name?: string;
  /**
   * Shows only the first rows of the sorted order until "Show all" is pressed, for a table too
   * long to read on real data; its CSV still holds every row, in the same order.
   */
  limit?: number;
}) {
  const [sort, setSort] = useState(initialSort ?? null);
  const [all, setAll] = useState(false);
  const sorted = sortRows(
    rows,
    columns.find((c) => c.key === sort?.key),
    sort,
  );
  const cut = limit !== undefined && sorted.length > limit;
  const shown = cut && !all ? sorted.slice(0, limit) : sorted;
  const fields = csvFields(columns);
  const rowClass = (row: R) =>
    [highlighted?.(row) ? 'highlight' : '', muted?.(row) ? 'muted' : '']
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <div class="table-block">
      <div class="table-wrap" tabIndex={0} role="region" aria-label={caption}>
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => {
                const active = sort?.key === c.key;
                return (
                  <th
                    key={c.key}
                    scope="col"
                    class={cellClass(c)}
                    title={c.title}
                    aria-sort={active ? (sort!.desc ? 'descending' : 'ascending') : undefined}
                  >
                    {c.sort ? (
                      <button
                        type="button"
                        class="sort"
                        onClick={() =>
                          setSort({ key: c.key, desc: active ? !sort!.desc : c.numeric === true })
                        }
                      >
                        {c.label}
                        <span aria-hidden="true">
                          {active ? (sort!.desc ? ' ▼' : ' ▲') : ' ↕'}
                        </span>
                      </button>
                    ) : (
                      c.label
                    )}
                    {c.define && <Define k={c.define} />}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={rowKey(row)} class={rowClass(row)}>
                {columns.map((c, i) =>
                  i === 0 ? (
                    <th key={c.key} scope="row">
                      {c.render(row)}
                    </th>
                  ) : (
                    <td key={c.key} class={cellClass(c)}>
                      {c.render(row)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="table-tools">
        {cut && (
          <button
            type="button"
            class="link show-all"
            aria-expanded={all}
            onClick={() => setAll(!all)}
          >
            {all ? `Show the first ${limit}` : `Show all ${sorted.length} rows`}
          </button>
        )}
        <DownloadCsv
          name={name}
          header={fields.map(([h]) => h)}
          rows={() => sorted.map((row) => fields.map(([, value]) => value(row)))}
        />
      </div>
    </div>
  );
}
