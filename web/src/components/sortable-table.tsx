/**
 * The dashboard's one table: columns declared once (heading, cell and CSV fields), headers that
 * sort it where a column has a sort value (aria-sort says how), muted and highlighted rows, a
 * "?" beside each defined heading, and a CSV download of exactly the rows shown, in their order.
 * Every column stays on every screen: a table wider than its screen scrolls sideways under a
 * sticky row-header column, with a cue that says how many columns lie beyond the edge
 * (web/src/components/table-scroll.tsx).
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { DefinitionKey } from '../definitions.ts';
import { Define } from './define.tsx';
import type { CsvValue } from '../csv.ts';
import { DownloadCsv } from './download.tsx';
import { Pager } from './pager.tsx';
import { TableScroll, useNarrow } from './table-scroll.tsx';

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
  /**
   * Secondary: on a phone it moves after the columns that are not, so those fit the first
   * screen, and is reached by swiping (web/src/components/table-scroll.tsx).
   */
  optional?: boolean;
  /**
   * Left out of the table when no row has a value (its sort value, else its first CSV
   * field's, is null, undefined or ''), as a source that lacks the field fills none: a column
   * of dashes says nothing. Its CSV columns stay, so a download's header is the same for
   * every source.
   */
  hideEmpty?: boolean;
  /** Its definition (web/src/definitions.ts), opened by a "?" beside the heading. */
  define?: DefinitionKey;
  /** Its CSV columns (raw numbers; an interval as low and high); default: the sort value. */
  csv?: ReadonlyArray<CsvField<R>>;
  /** Classes of its body cells beside num and opt (e.g. "secondary"), not of its heading. */
  cellClass?: string;
  /** A data-testid on each of its body cells. */
  testId?: string;
  /** Kept on one line, heading and cells (e.g. "3 / 0 / 1"). */
  nowrap?: boolean;
}

function classOf<R>(c: Column<R>, extra?: string): string | undefined {
  return (
    [c.numeric ? 'num' : '', c.nowrap ? 'nowrap' : '', extra ?? ''].filter(Boolean).join(' ') ||
    undefined
  );
}

/** The CSV columns of a table: each column's own, else its sort value under its key. */
export function csvFields<R>(columns: Array<Column<R>>): Array<CsvField<R>> {
  return columns.flatMap((c): Array<CsvField<R>> => {
    if (c.csv) return [...c.csv];
    const sort = c.sort;
    return sort ? [[c.key, (r: R) => sort(r)] as const] : [];
  });
}

function sortRows<R>(rows: R[], column: Column<R> | undefined, sort: Sort): R[] {
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

export interface TableProps<R> {
  caption: ComponentChildren;
  /** The caption for screen readers only, where the page's heading already says it. */
  captionHidden?: boolean;
  /** The scrolling region's name; default: the caption (which must then be a string). */
  label?: string;
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
  /**
   * Pages through the sorted rows this many at a time (a pager below), for a list too long for
   * one screen; sorting goes back to page 1; its CSV still holds every row, in the same order.
   */
  pageSize?: number;
  /** What the pager counts, e.g. "events" (default "rows"). */
  rowsWhat?: string;
  /** The column whose cells head their rows (th scope="row"); default: the first. */
  rowHeader?: string;
  /** CSV columns after the columns' own, for what the table does not show. */
  csvExtra?: ReadonlyArray<CsvField<R>>;
  /** False: no CSV download (a table the page downloads some other way, or not at all). */
  download?: boolean;
  testId?: string;
  /** Data attributes of each row (e.g. data-player), for what reads the table. */
  rowData?: (row: R) => Record<`data-${string}`, string>;
}

type Sort = { key: string; desc: boolean } | null;

/** A column's heading: a button that sorts by it where it has a sort value. */
function Heading<R>({
  column: c,
  sort,
  onSort,
  rowHead,
}: {
  column: Column<R>;
  sort: Sort;
  onSort: (next: Sort) => void;
  rowHead: boolean;
}) {
  const active = sort?.key === c.key;
  const desc = sort?.desc === true;
  return (
    <th
      scope="col"
      class={classOf(c, rowHead ? 'row-head' : undefined)}
      title={c.title}
      aria-sort={active ? (desc ? 'descending' : 'ascending') : undefined}
    >
      {c.sort ? (
        <button
          type="button"
          class="sort"
          onClick={() => onSort({ key: c.key, desc: active ? !desc : c.numeric === true })}
        >
          {c.label}
          <span aria-hidden="true">{active ? (desc ? ' ▼' : ' ▲') : ' ↕'}</span>
        </button>
      ) : (
        c.label
      )}
      {c.define && <Define k={c.define} />}
    </th>
  );
}

/** One row: the row-header column's cell a th, the others td. */
function BodyRow<R>({
  row,
  columns,
  header,
  rowClass,
  data,
}: {
  row: R;
  columns: Array<Column<R>>;
  header: string | undefined;
  rowClass: string | undefined;
  data: Record<`data-${string}`, string> | undefined;
}) {
  return (
    <tr class={rowClass} {...data}>
      {columns.map((c) =>
        c.key === header ? (
          <th
            key={c.key}
            scope="row"
            class={classOf(c, `row-head ${c.cellClass ?? ''}`.trim())}
            data-testid={c.testId}
          >
            {c.render(row)}
          </th>
        ) : (
          <td key={c.key} class={classOf(c, c.cellClass)} data-testid={c.testId}>
            {c.render(row)}
          </td>
        ),
      )}
    </tr>
  );
}

/** The columns shown: each one some row fills, where it is left out when none does. */
function filledColumns<R>(columns: Array<Column<R>>, rows: R[]): Array<Column<R>> {
  return columns.filter((c) => {
    const value = c.sort ?? c.csv?.[0]?.[1];
    if (!c.hideEmpty || value === undefined || rows.length === 0) return true;
    return rows.some((r) => {
      const v = value(r);
      return v !== null && v !== undefined && v !== '';
    });
  });
}

export function SortableTable<R>({
  caption,
  captionHidden,
  label,
  columns: declared,
  rows,
  rowKey,
  muted,
  highlighted,
  initialSort,
  name,
  limit,
  pageSize,
  rowsWhat = 'rows',
  rowHeader,
  csvExtra = [],
  download = true,
  testId,
  rowData,
}: TableProps<R>) {
  const narrow = useNarrow();
  const filled = filledColumns(declared, rows);
  const header = rowHeader ?? filled[0]?.key;
  const moves = (c: Column<R>) => c.optional === true && c.key !== header;
  const columns = narrow ? [...filled.filter((c) => !moves(c)), ...filled.filter(moves)] : filled;
  const [sort, setSort] = useState<Sort>(initialSort ?? null);
  const [all, setAll] = useState(false);
  const [page, setPage] = useState(1);
  const sorted = sortRows(
    rows,
    columns.find((c) => c.key === sort?.key),
    sort,
  );
  const cut = limit !== undefined && sorted.length > limit;
  const pages = pageSize === undefined ? 1 : Math.max(1, Math.ceil(sorted.length / pageSize));
  const at = Math.min(page, pages);
  const paged = pageSize === undefined ? sorted : sorted.slice((at - 1) * pageSize, at * pageSize);
  const shown = cut && !all ? paged.slice(0, limit) : paged;
  // The CSV keeps a column left out for want of values: its header is the same for every source.
  const fields = [...csvFields(declared), ...csvExtra];
  const rowClass = (row: R) =>
    [highlighted?.(row) ? 'highlight' : '', muted?.(row) ? 'muted' : '']
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <div class="table-block">
      <TableScroll
        label={label ?? (typeof caption === 'string' ? caption : undefined)}
        columns={columns.length}
      >
        <table data-testid={testId}>
          <caption class={captionHidden ? 'sr-only' : undefined}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <Heading
                  key={c.key}
                  column={c}
                  sort={sort}
                  rowHead={c.key === header}
                  onSort={(next) => {
                    setSort(next);
                    setPage(1);
                  }}
                />
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <BodyRow
                key={rowKey(row)}
                row={row}
                columns={columns}
                header={header}
                rowClass={rowClass(row)}
                data={rowData?.(row)}
              />
            ))}
          </tbody>
        </table>
      </TableScroll>
      {pages > 1 && pageSize !== undefined && (
        <Pager
          page={at}
          pageSize={pageSize}
          total={sorted.length}
          onPage={setPage}
          what={rowsWhat}
        />
      )}
      {(cut || download) && (
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
          {download && (
            <DownloadCsv
              name={name}
              header={fields.map(([h]) => h)}
              rows={() => sorted.map((row) => fields.map(([, value]) => value(row)))}
            />
          )}
        </div>
      )}
    </div>
  );
}
