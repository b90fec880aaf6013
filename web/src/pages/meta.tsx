/** Meta: how each faction performs, the meta's diversity, and win rates over time. */
import { useMemo } from 'preact/hooks';
import { post } from '../api.ts';
import { TableCsv } from '../components/download.tsx';
import { FactionLink } from '../components/entity-link.tsx';
import { OverRepresentationSection } from '../components/over-representation.tsx';
import { rateColumns } from '../components/rate-columns.tsx';
import type { Line } from '../components/line-chart.tsx';
import { LineChart, SERIES_COLOURS } from '../components/line-chart.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct, signed } from '../format.ts';
import type { FactionRow } from '../types.ts';
import { useApi } from '../use-api.ts';
import { listParam } from '../url-state.ts';
import type { PageProps } from './page-props.ts';

const COLUMNS: Array<Column<FactionRow>> = [
  {
    key: 'faction',
    label: 'Faction',
    sort: (r) => r.faction.name,
    render: (r) => (
      <>
        <FactionLink faction={r.faction} />
        {r.lowSample && (
          <span class="badge" title="Fewer than 30 games: read with care">
            low sample
          </span>
        )}
      </>
    ),
  },
  ...rateColumns(),
  {
    key: 'metaShare',
    optional: true,
    label: 'Meta share',
    numeric: true,
    define: 'metaShare',
    sort: (r) => r.metaShare,
    render: (r) => pct(r.metaShare),
  },
  {
    key: 'first',
    optional: true,
    label: '1st turn',
    numeric: true,
    define: 'firstTurn',
    sort: (r) => r.firstTurn.winRate,
    render: (r) => pct(r.firstTurn.winRate),
    title: 'Win rate when going first',
  },
  {
    key: 'second',
    optional: true,
    label: '2nd turn',
    numeric: true,
    define: 'secondTurn',
    sort: (r) => r.secondTurn.winRate,
    render: (r) => pct(r.secondTurn.winRate),
    title: 'Win rate when going second',
  },
  {
    key: 'skill',
    optional: true,
    label: 'Skill-adjusted',
    numeric: true,
    define: 'skill',
    title:
      "Win rate minus what the players' ratings predicted: above 0 the army did better than its players",
    sort: (r) => r.skill?.overExpected ?? null,
    render: (r) => signed(r.skill?.overExpected),
  },
];

/** Every period from the first to the last, gaps filled, so the x axis is even. */
export function periodRun(first: string, last: string): string[] {
  const quarter = /^\d{4}-Q\d$/.test(first);
  const index = (p: string) =>
    quarter ? +p.slice(0, 4) * 4 + (+p.slice(6) - 1) : +p.slice(0, 4) * 12 + (+p.slice(5, 7) - 1);
  const key = (i: number) =>
    quarter
      ? `${Math.floor(i / 4)}-Q${(i % 4) + 1}`
      : `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
  const run: string[] = [];
  for (let i = index(first); i <= index(last) && run.length < 1000; i++) run.push(key(i));
  return run;
}

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** "2025-Q2" -> "2025 Q2"; "2025-04" -> "Apr 2025": periods, never times of day. */
export function periodLabel(period: string): string {
  const quarter = /^(\d{4})-Q(\d)$/.exec(period);
  if (quarter) return `${quarter[1]} Q${quarter[2]}`;
  return `${MONTHS[+period.slice(5, 7) - 1]} ${period.slice(0, 4)}`;
}

/** The day after the period ends (YYYY-MM-DD). */
function periodEnd(period: string): string {
  const quarter = /^(\d{4})-Q(\d)$/.exec(period);
  const [year, month] = quarter
    ? [+quarter[1], +quarter[2] * 3]
    : [+period.slice(0, 4), +period.slice(5, 7)];
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
}

/**
 * A period is partial when the data cannot have all of it yet: it ends after today, or after
 * the filter's "to" date.
 */
function isPartial(period: string, to: string | undefined): boolean {
  const today = new Date().toISOString().slice(0, 10);
  const end = periodEnd(period);
  return end > today || (to !== undefined && to !== '' && end > to);
}

/**
 * Each faction's colour from its place in the system's faction list, so a line keeps its colour
 * whichever factions are chosen; a chosen faction whose colour an earlier one took is dashed.
 */
function coloured(
  chosen: string[],
  order: string[],
): Map<string, { colour: string; dashed: boolean }> {
  const used = new Set<string>();
  const out = new Map<string, { colour: string; dashed: boolean }>();
  for (const id of [...chosen].sort((a, b) => order.indexOf(a) - order.indexOf(b))) {
    const at = order.indexOf(id);
    const colour = SERIES_COLOURS[(at < 0 ? order.length : at) % SERIES_COLOURS.length];
    out.set(id, { colour, dashed: used.has(colour) });
    used.add(colour);
  }
  return out;
}

function Trend({
  rows,
  chosen,
  period,
  order,
  to,
}: {
  rows: FactionRow[];
  chosen: string[];
  period: string;
  order: string[];
  to: string | undefined;
}) {
  const picked = rows.filter((r) => chosen.includes(r.faction.id));
  const { periods, lines, partial } = useMemo(() => {
    const present = [
      ...new Set(picked.flatMap((r) => r.series?.map((p) => p.period) ?? [])),
    ].sort();
    const periods = present.length ? periodRun(present[0], present[present.length - 1]) : [];
    const colours = coloured(
      picked.map((r) => r.faction.id),
      order,
    );
    const lines: Line[] = picked.map((r) => {
      const byPeriod = new Map(r.series?.map((p) => [p.period, p.winRate]));
      const { colour, dashed } = colours.get(r.faction.id)!;
      return {
        id: r.faction.id,
        label: r.faction.name,
        values: periods.map((p) => byPeriod.get(p) ?? null),
        colour,
        dashed,
      };
    });
    const last = periods.length - 1;
    const partial = last >= 0 && isPartial(periods[last], to) ? last : -1;
    return { periods, lines, partial };
  }, [rows, chosen.join(','), order.join(','), to]);
  if (picked.length === 0)
    return <Empty>Choose factions above to see their win rates over time.</Empty>;
  const title = `Win rate per ${period === 'month' ? 'month' : 'quarter'}`;
  const labels = periods.map(periodLabel);
  return (
    <>
      <LineChart periods={periods} labels={labels} lines={lines} partial={partial} title={title} />
      <details class="as-table">
        <summary>The chart as a table</summary>
        <div class="table-wrap" tabIndex={0} role="region" aria-label={title}>
          <table>
            <caption>{title} (games in brackets)</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                {picked.map((r) => (
                  <th key={r.faction.id} scope="col" class="num">
                    {r.faction.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {periods.map((p, i) => (
                <tr key={p}>
                  <th scope="row">
                    {p}
                    {i === partial ? ' (in progress)' : ''}
                  </th>
                  {picked.map((r) => {
                    const point = r.series?.find((s) => s.period === p);
                    return (
                      <td key={r.faction.id} class="num">
                        {point ? `${pct(point.winRate)} (${point.games})` : '–'}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <TableCsv
          name="trend"
          header={[
            'period',
            ...picked.flatMap((r) => [`${r.faction.id} winRate`, `${r.faction.id} games`]),
          ]}
          rows={() =>
            periods.map((p) => [
              p,
              ...picked.flatMap((r) => {
                const point = r.series?.find((s) => s.period === p);
                return [point?.winRate, point?.games];
              }),
            ])
          }
        />
      </details>
    </>
  );
}

export function MetaPage({ params, update, filter, system }: PageProps) {
  const period: 'month' | 'quarter' = params.period === 'month' ? 'month' : 'quarter';
  const body = { ...filter, groupBy: period };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/faction-stats', body, signal));
  return (
    <Show result={result} what="faction statistics">
      {({ data, meta }) => {
        if (data.factions.length === 0) return <Empty>No games match these filters.</Empty>;
        const top = data.factions.slice(0, 4).map((r) => r.faction.id);
        const chosen = params.trend === undefined ? top : listParam(params, 'trend');
        const d = data.summary.diversity;
        return (
          <>
            <Warnings warnings={meta.warnings} />
            <dl class="stats" aria-label="The meta at a glance">
              <div>
                <dt>Games</dt>
                <dd data-testid="games">{num(data.summary.games)}</dd>
              </div>
              <div>
                <dt>Events</dt>
                <dd>{num(data.summary.events)}</dd>
              </div>
              <div>
                <dt>Factions played</dt>
                <dd>{data.factions.length}</dd>
              </div>
              <div>
                <dt title="1 / Herfindahl index of meta shares: how many equally played factions the meta is worth">
                  Effective factions
                </dt>
                <dd>{num(d.effectiveFactions, 1)}</dd>
              </div>
              <div>
                <dt title="Herfindahl-Hirschman index of meta shares (lower: more diverse)">HHI</dt>
                <dd>{num(d.hhi, 3)}</dd>
              </div>
            </dl>
            <SortableTable
              caption="Factions, most games first. Muted rows have fewer than 30 games."
              columns={COLUMNS}
              rows={data.factions}
              rowKey={(r) => r.faction.id}
              muted={(r) => r.lowSample}
            />
            <OverRepresentationSection rows={data.factions} />
            <section aria-labelledby="trend-h">
              <h2 id="trend-h">Win rate over time</h2>
              <div class="controls">
                <label>
                  Period
                  <select
                    value={period}
                    onChange={(e) =>
                      update({ period: (e.currentTarget as HTMLSelectElement).value })
                    }
                  >
                    <option value="quarter">quarters</option>
                    <option value="month">months</option>
                  </select>
                </label>
                <details class="checklist">
                  <summary>
                    Factions: <span class="chosen">{chosen.length} chosen</span>
                  </summary>
                  <fieldset>
                    <legend class="sr-only">Factions in the chart</legend>
                    {data.factions.map((r) => (
                      <label key={r.faction.id}>
                        <input
                          type="checkbox"
                          checked={chosen.includes(r.faction.id)}
                          onChange={(e) => {
                            const on = (e.currentTarget as HTMLInputElement).checked;
                            const next = on
                              ? [...chosen, r.faction.id]
                              : chosen.filter((c) => c !== r.faction.id);
                            update({ trend: next.join(',') || ',' }, true);
                          }}
                        />{' '}
                        {r.faction.name}
                      </label>
                    ))}
                  </fieldset>
                </details>
              </div>
              <Trend
                rows={data.factions}
                chosen={chosen}
                period={period}
                order={system?.factions.map((f) => f.id) ?? []}
                to={params.to}
              />
            </section>
          </>
        );
      }}
    </Show>
  );
}
