/**
 * The Meta page's trend: the chosen factions' win rates per period with their intervals, thin
 * periods (fewer than MIN_PERIOD_GAMES games of the faction) marked, and the same as a table.
 */
import { useMemo } from 'preact/hooks';
import type { Line } from '../components/line-chart.tsx';
import { LineChart, SERIES_COLOURS } from '../components/line-chart.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty } from '../components/status.tsx';
import { pct } from '../format.ts';
import { isPartial, periodLabel, periodRun } from '../periods.ts';
import type { FactionRow } from '../types.ts';

/** Below this many games of a faction in a period, its point is drawn hollow (LOW_SAMPLE_GAMES). */
export const MIN_PERIOD_GAMES = 30;

type SeriesPoint = NonNullable<FactionRow['series']>[number];

/**
 * A colour for each chosen faction, none shared while there are colours left: the most played
 * (first in `picked`) keeps its faction's own colour (its place in the system's faction list),
 * so a line keeps its colour whichever other factions are chosen; one whose colour a more played
 * faction holds takes the first free one; past eight factions colours repeat, dashed.
 */
export function coloured(
  picked: string[],
  order: string[],
): Map<string, { colour: string; dashed: boolean }> {
  const used = new Set<string>();
  const out = new Map<string, { colour: string; dashed: boolean }>();
  for (const id of picked) {
    const at = order.indexOf(id);
    const own = SERIES_COLOURS[(at < 0 ? order.length : at) % SERIES_COLOURS.length];
    const free = used.has(own) ? SERIES_COLOURS.find((c) => !used.has(c)) : own;
    out.set(id, { colour: free ?? own, dashed: free === undefined });
    used.add(free ?? own);
  }
  return out;
}

interface PeriodRow {
  period: string;
  partial: boolean;
  points: Map<string, SeriesPoint>;
}

/** The table's columns: the period, then one per faction (win rate, games in brackets). */
function trendColumns(picked: FactionRow[]): Array<Column<PeriodRow>> {
  return [
    {
      key: 'period',
      label: 'Period',
      sort: (r) => r.period,
      csv: [['period', (r) => r.period]],
      render: (r) => `${r.period}${r.partial ? ' (in progress)' : ''}`,
    },
    ...picked.map(
      (f): Column<PeriodRow> => ({
        key: f.faction.id,
        label: f.faction.name,
        numeric: true,
        sort: (r) => r.points.get(f.faction.id)?.winRate ?? null,
        csv: [
          [`${f.faction.id} winRate`, (r) => r.points.get(f.faction.id)?.winRate],
          [`${f.faction.id} games`, (r) => r.points.get(f.faction.id)?.games],
        ],
        render: (r) => {
          const point = r.points.get(f.faction.id);
          if (!point) return '–';
          const thin = point.games < MIN_PERIOD_GAMES;
          return (
            <span class={thin ? 'thin' : undefined} title={thin ? 'Few games' : undefined}>
              {pct(point.winRate)} ({point.games})
            </span>
          );
        },
      }),
    ),
  ];
}

/** Each chosen faction's line over the gapless run of periods. */
function linesOf(picked: FactionRow[], periods: string[], order: string[]): Line[] {
  const colours = coloured(
    picked.map((r) => r.faction.id),
    order,
  );
  return picked.map((r) => {
    const byPeriod = new Map(r.series?.map((p) => [p.period, p]));
    const at = (p: string) => byPeriod.get(p);
    const { colour, dashed } = colours.get(r.faction.id)!;
    return {
      id: r.faction.id,
      label: r.faction.name,
      values: periods.map((p) => at(p)?.winRate ?? null),
      low: periods.map((p) => at(p)?.winRateInterval?.low ?? null),
      high: periods.map((p) => at(p)?.winRateInterval?.high ?? null),
      thin: periods.map((p) => (at(p)?.games ?? 0) < MIN_PERIOD_GAMES),
      colour,
      dashed,
    };
  });
}

export function Trend({
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
    const last = periods.length - 1;
    const partial = last >= 0 && isPartial(periods[last], to) ? last : -1;
    return { periods, lines: linesOf(picked, periods, order), partial };
  }, [rows, chosen.join(','), order.join(','), to]);
  if (picked.length === 0)
    return <Empty>Choose factions above to see their win rates over time.</Empty>;
  const title = `Win rate per ${period === 'month' ? 'month' : 'quarter'}`;
  const tableRows: PeriodRow[] = periods.map((p, i) => ({
    period: p,
    partial: i === partial,
    points: new Map(
      picked.flatMap((r) => {
        const point = r.series?.find((s) => s.period === p);
        return point ? [[r.faction.id, point] as const] : [];
      }),
    ),
  }));
  return (
    <>
      <p class="note">
        Each line has its 95 % interval as a faint band. A period with fewer than {MIN_PERIOD_GAMES}{' '}
        games of a faction is a hollow point on a dashed segment: too few games to read as much as a
        full one.
      </p>
      <LineChart
        periods={periods}
        labels={periods.map(periodLabel)}
        lines={lines}
        partial={partial}
        title={title}
        minGames={MIN_PERIOD_GAMES}
      />
      <details class="as-table">
        <summary>The chart as a table</summary>
        <SortableTable
          caption={`${title} (games in brackets)`}
          label={title}
          columns={trendColumns(picked)}
          rows={tableRows}
          rowKey={(r) => r.period}
          initialSort={{ key: 'period', desc: false }}
          name="trend"
        />
      </details>
    </>
  );
}
