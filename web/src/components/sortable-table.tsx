/** A table whose column headers sort it (aria-sort says how), with muted rows. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

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
}

function cellClass<R>(c: Column<R>): string | undefined {
  return [c.numeric ? 'num' : '', c.optional ? 'opt' : ''].filter(Boolean).join(' ') || undefined;
}

export function SortableTable<R>({
  caption,
  columns,
  rows,
  rowKey,
  muted,
  initialSort,
}: {
  caption: string;
  columns: Array<Column<R>>;
  rows: R[];
  rowKey: (row: R) => string;
  muted?: (row: R) => boolean;
  initialSort?: { key: string; desc: boolean };
}) {
  const [sort, setSort] = useState(initialSort ?? null);
  const column = columns.find((c) => c.key === sort?.key);
  const sorted =
    column?.sort === undefined || sort === null
      ? rows
      : [...rows].sort((a, b) => {
          const x = column.sort!(a);
          const y = column.sort!(b);
          if (x === y) return 0;
          if (x === null) return 1;
          if (y === null) return -1;
          const order = x < y ? -1 : 1;
          return sort.desc ? -order : order;
        });
  return (
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
                      <span aria-hidden="true">{active ? (sort!.desc ? ' ▼' : ' ▲') : ' ↕'}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={rowKey(row)} class={muted?.(row) ? 'muted' : undefined}>
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
  );
}
