/**
 * A faction's strength after pilot skill and its performance against expectation per month
 * (docs/statistics.md#performance-against-expectation, Aligulac's balance report): what its games
 * scored minus what its pilots' pre-game ratings predicted, drawn with its 95 % interval. It asks
 * faction-strength on its own, so the model's fit does not hold up the rest of the page.
 */
import { post } from '../api.ts';
import { BandChart } from '../components/band-chart.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { OnePlayerBadge, StrengthCell } from '../components/strength-column.tsx';
import { isolate, num, pct, signed } from '../format.ts';
import { periodLabel, periodRun } from '../periods.ts';
import type { CommonFilter, FactionStrengthRow } from '../types.ts';
import { useApi } from '../use-api.ts';

type Month = NonNullable<FactionStrengthRow['monthly']>[number];

const MONTH_COLUMNS: Array<Column<Month>> = [
  {
    key: 'month',
    label: 'Month',
    csv: [['month', (m) => m.month]],
    render: (m) => periodLabel(m.month),
  },
  {
    key: 'games',
    label: 'Games',
    numeric: true,
    csv: [['games', (m) => m.games]],
    render: (m) => num(m.games),
  },
  {
    key: 'scored',
    label: 'Scored',
    numeric: true,
    optional: true,
    csv: [['scored', (m) => m.scored]],
    render: (m) => pct(m.scored),
  },
  {
    key: 'expected',
    label: 'Expected',
    numeric: true,
    optional: true,
    csv: [['expected', (m) => m.expected]],
    render: (m) => pct(m.expected),
  },
  {
    key: 'overExpected',
    label: 'Against expectation (95 % interval)',
    numeric: true,
    define: 'overExpected',
    csv: [
      ['overExpected', (m) => m.overExpected],
      ['overExpectedLow', (m) => m.interval?.low],
      ['overExpectedHigh', (m) => m.interval?.high],
    ],
    render: (m) => (
      <>
        {signed(m.overExpected)}{' '}
        {m.interval && (
          <span class="secondary">
            ({signed(m.interval.low, 0)} to {signed(m.interval.high, 0)})
          </span>
        )}
      </>
    ),
  },
];

/**
 * The chart's y bounds: ±50 points holds any month's mean (a thin month of one game can be 45
 * points off), while a thin month's interval (a t interval on one degree of freedom spans
 * ±150 points) is cut there so it does not flatten the rest; the table gives it whole.
 */
const RANGE: [number, number] = [-0.5, 0.5];

function MonthlyChart({ months, name }: { months: Month[]; name: string }) {
  if (months.length === 0)
    return (
      <Empty>
        No rated games of <bdi>{name}</bdi> in scope.
      </Empty>
    );
  const run = periodRun(months[0].month, months[months.length - 1].month);
  const byMonth = new Map(months.map((m) => [m.month, m]));
  const clip = (v: number | undefined) =>
    v === undefined ? null : Math.min(RANGE[1], Math.max(RANGE[0], v));
  const points = run.map((p, x) => {
    const m = byMonth.get(p);
    return {
      x,
      value: m?.overExpected ?? null,
      low: clip(m?.interval?.low ?? m?.overExpected),
      high: clip(m?.interval?.high ?? m?.overExpected),
    };
  });
  const title = 'Scored minus expected from the pilots’ ratings, per month';
  return (
    <div data-testid="expectation-chart">
      <BandChart
        points={points}
        labels={run.map(periodLabel)}
        title={title}
        valueLabel="Scored − expected"
        bandLabel="95 % interval"
        format={(v) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.round(Math.abs(v) * 100)} pp`}
        clamp={RANGE}
      />
      <details class="as-table">
        <summary>The chart as a table</summary>
        <SortableTable
          caption={title}
          name="against-expectation"
          columns={MONTH_COLUMNS}
          rows={months}
          rowKey={(m) => m.month}
        />
      </details>
    </div>
  );
}

/** The faction's row of faction-strength, with its months, and what it says. */
export function AgainstExpectation({
  filter,
  faction,
}: {
  filter: CommonFilter;
  faction: { id: string; name: string };
}) {
  const body = { ...filter, monthly: [faction.id] };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/faction-strength', body, signal),
  );
  return (
    <section aria-labelledby="expectation-h">
      <h2 id="expectation-h">Performance against expectation</h2>
      <Show result={result} what="the model's figures">
        {({ data, meta }) => {
          const row = data.factions.find((r) => r.faction.id === faction.id);
          if (row === undefined)
            return (
              <Empty>
                <bdi>{faction.name}</bdi> played no rated game in scope.
              </Empty>
            );
          const mine = meta.warnings.filter((w) => w.includes(`${isolate(faction.name)}'s`));
          return (
            <>
              <Warnings warnings={mine} />
              <dl class="stats" aria-label="After pilot skill">
                <div>
                  <dt title="Expected score of an average pilot of it against an average opponent (95 % interval)">
                    After pilot skill
                  </dt>
                  <dd data-testid="faction-strength">
                    <StrengthCell strength={row.strength} />
                  </dd>
                </div>
                <div>
                  <dt title="Mean pre-game Glicko-2 rating of its pilots; in brackets the field's, the mean over every side in the model, to compare with">
                    Pilot rating
                  </dt>
                  <dd>
                    {num(row.pilotRating)}{' '}
                    <small class="secondary">(field {num(row.fieldRating)})</small>
                  </dd>
                </div>
                <div>
                  <dt title="Share of its games played by its most frequent player">Top player</dt>
                  <dd>
                    {pct(row.topPlayerShare, 0)} <OnePlayerBadge share={row.topPlayerShare} />
                  </dd>
                </div>
              </dl>
              <p class="note">
                Each month, what <bdi>{faction.name}</bdi>'s games scored
                {data.model.outcome === 'score-share' ? ' (as a share of the points)' : ''} minus
                what its pilots' ratings before each event predicted: above 0 the army did better
                than its players. Months without its games are gaps.
              </p>
              <MonthlyChart months={row.monthly ?? []} name={faction.name} />
            </>
          );
        }}
      </Show>
    </section>
  );
}
