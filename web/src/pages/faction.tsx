/**
 * A faction's page: its figures at a glance, its win rate over time with intervals, how often
 * its entries run the table against the coin flip, then its matchups, items, scenario parts and
 * best players (faction-sections.tsx). The faction is the URL's `faction`.
 */
import { post } from '../api.ts';
import { BandChart } from '../components/band-chart.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct, signed, titleText } from '../format.ts';
import type { FactionRow } from '../types.ts';
import { FactionOverRepresentation } from '../components/over-representation.tsx';
import { useApi } from '../use-api.ts';
import { entityHref } from '../url-state.ts';
import { EventWins } from './faction-events.tsx';
import { ScoreDistribution } from './faction-scores.tsx';
import { AgainstExpectation } from './faction-expectation.tsx';
import { BestPlayers, MatchupRow, ScenarioParts, TopItems } from './faction-sections.tsx';
import { periodLabel, periodRun } from '../periods.ts';
import type { PageProps } from './page-props.ts';

function Glance({ row }: { row: FactionRow }) {
  const i = row.winRateInterval;
  return (
    <dl class="stats" aria-label="The faction at a glance">
      <div>
        <dt>Games</dt>
        <dd data-testid="faction-games">{num(row.games)}</dd>
      </div>
      <div>
        <dt>Win rate (95 % interval)</dt>
        <dd>
          {pct(row.winRate)}
          {i && (
            <span class="secondary">
              {' '}
              {pct(i.low, 0)}–{pct(i.high, 0)}
            </span>
          )}
        </dd>
      </div>
      <div>
        <dt>Meta share</dt>
        <dd>{pct(row.metaShare)}</dd>
      </div>
      <div>
        <dt>Players</dt>
        <dd>{num(row.players)}</dd>
      </div>
      <div>
        <dt>Event wins</dt>
        <dd data-testid="event-wins">
          {num(row.eventWins)}
          {(row.derivedEventWins ?? 0) > 0 && (
            <small
              class="secondary"
              data-testid="derived-event-wins"
              title="Places the source does not publish, derived from the games by the system's rule (docs: Standings)"
            >
              {' '}
              ({row.derivedEventWins === row.eventWins ? 'all' : num(row.derivedEventWins)} derived)
            </small>
          )}
        </dd>
      </div>
      <div>
        <dt>Undefeated entries</dt>
        <dd>{num(row.undefeated)}</dd>
      </div>
      <div>
        <dt title="Win rate minus what the players' ratings predicted: above 0 the army did better than its players">
          Skill-adjusted
        </dt>
        <dd>{signed(row.skill?.overExpected)}</dd>
      </div>
    </dl>
  );
}

type Period = NonNullable<FactionRow['series']>[number];

const PERIOD_COLUMNS: Array<Column<Period>> = [
  {
    key: 'period',
    label: 'Period',
    csv: [['period', (s) => s.period]],
    render: (s) => periodLabel(s.period),
  },
  {
    key: 'games',
    label: 'Games',
    numeric: true,
    csv: [['games', (s) => s.games]],
    render: (s) => s.games,
  },
  {
    key: 'winRate',
    label: 'Win rate (95 % interval)',
    numeric: true,
    csv: [
      ['winRate', (s) => s.winRate],
      ['winRateLow', (s) => s.winRateInterval?.low],
      ['winRateHigh', (s) => s.winRateInterval?.high],
    ],
    render: (s) => (
      <>
        {pct(s.winRate)}{' '}
        <span class="secondary">
          ({pct(s.winRateInterval?.low, 0)}–{pct(s.winRateInterval?.high, 0)})
        </span>
      </>
    ),
  },
];

function WinRateOverTime({ row, period }: { row: FactionRow; period: string }) {
  const series = row.series ?? [];
  if (series.length === 0) return <Empty>No games in scope to draw over time.</Empty>;
  const periods = periodRun(series[0].period, series[series.length - 1].period);
  const byPeriod = new Map(series.map((p) => [p.period, p]));
  const points = periods.map((p, x) => {
    const s = byPeriod.get(p);
    return {
      x,
      value: s?.winRate ?? null,
      low: s?.winRateInterval?.low ?? null,
      high: s?.winRateInterval?.high ?? null,
    };
  });
  const title = `Win rate per ${period}`;
  return (
    <>
      <p class="note">
        Every period is drawn the same, its 95 % interval as the band: a thin period shows as a wide
        band. (Meta's trend, which draws several factions at once, draws a period with fewer than 30
        games hollow instead.)
      </p>
      <BandChart
        points={points}
        labels={periods.map(periodLabel)}
        title={title}
        valueLabel="Win rate"
        bandLabel="95 % Wilson interval"
        format={(v) => `${Math.round(v * 100)} %`}
        clamp={[0, 1]}
      />
      <details class="as-table">
        <summary>The chart as a table</summary>
        <SortableTable
          caption={title}
          name="win-rate"
          columns={PERIOD_COLUMNS}
          rows={series}
          rowKey={(p) => p.period}
        />
      </details>
    </>
  );
}

type Run = FactionRow['runTheTable'][number];

const RUN_COLUMNS: Array<Column<Run>> = [
  {
    key: 'games',
    label: 'Games played',
    csv: [['gamesPlayed', (r) => r.games]],
    render: (r) => r.games,
  },
  {
    key: 'entries',
    label: 'Entries',
    numeric: true,
    csv: [['entries', (r) => r.entries]],
    render: (r) => r.entries,
  },
  {
    key: 'undefeated',
    label: 'Undefeated',
    numeric: true,
    csv: [
      ['undefeated', (r) => r.undefeated],
      ['undefeatedShare', (r) => r.undefeatedShare],
    ],
    render: (r) => (
      <>
        {r.undefeated} <span class="secondary">({pct(r.undefeatedShare, 0)})</span>
      </>
    ),
  },
  {
    key: 'coinFlip',
    label: 'Coin flip',
    numeric: true,
    cellClass: 'secondary',
    csv: [['coinFlipUndefeated', (r) => r.coinFlipUndefeated]],
    render: (r) => pct(r.coinFlipUndefeated, 0),
  },
  {
    key: 'oneLoss',
    label: 'At most 1 loss',
    numeric: true,
    optional: true,
    csv: [
      ['atMostOneLoss', (r) => r.atMostOneLoss],
      ['atMostOneLossShare', (r) => r.atMostOneLossShare],
    ],
    render: (r) => (
      <>
        {r.atMostOneLoss} <span class="secondary">({pct(r.atMostOneLossShare, 0)})</span>
      </>
    ),
  },
  {
    key: 'coinFlipOneLoss',
    label: 'Coin flip',
    numeric: true,
    optional: true,
    cellClass: 'secondary',
    csv: [['coinFlipAtMostOneLoss', (r) => r.coinFlipAtMostOneLoss]],
    render: (r) => pct(r.coinFlipAtMostOneLoss, 0),
  },
];

function RunTheTable({ row }: { row: FactionRow }) {
  if (row.runTheTable.length === 0) return <Empty>No standings entries in scope.</Empty>;
  return (
    <SortableTable
      caption="Entries that lost no game (X-0) and at most one, against a coin flip's expectation"
      label="Undefeated runs"
      name="runs"
      columns={RUN_COLUMNS}
      rows={row.runTheTable}
      rowKey={(r) => String(r.games)}
    />
  );
}

export function FactionPage({ params, update, filter, system }: PageProps) {
  const id = params.faction ?? '';
  const faction = system?.factions.find((f) => f.id.toLowerCase() === id.toLowerCase());
  const period: 'month' | 'quarter' = params.period === 'month' ? 'month' : 'quarter';
  const body = {
    ...filter,
    factions: [faction?.id ?? id],
    groupBy: period,
    scoreDistribution: true,
  };
  const result = useApi(faction ? JSON.stringify(body) : null, (signal) =>
    post('/api/faction-stats', body, signal),
  );
  if (faction === undefined) {
    return (
      <>
        <h1>Faction not found</h1>
        <div class="status empty" role="status" data-testid="unknown-faction">
          <p>
            {id ? `There is no faction “${id}”` : 'No faction was chosen'} in{' '}
            {system?.name ?? 'this game system'}.
          </p>
          <p>
            <a href={entityHref(params, 'meta', '')}>See every faction on the Meta page</a>
          </p>
        </div>
      </>
    );
  }
  document.title = `${titleText(faction.name)} · Muster`;
  return (
    <>
      <h1>
        <bdi>{faction.name}</bdi>
      </h1>
      <Show result={result} what="the faction">
        {({ data, meta }) => {
          const row = data.factions.find((r) => r.faction.id === faction.id);
          if (row === undefined)
            return (
              <Empty>
                <bdi>{faction.name}</bdi> played no game in scope.
              </Empty>
            );
          return (
            <>
              <Warnings warnings={meta.warnings} />
              <Glance row={row} />
              <section aria-labelledby="trend-h">
                <h2 id="trend-h">Win rate over time</h2>
                <label>
                  Period{' '}
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
                <WinRateOverTime row={row} period={period} />
              </section>
              <section aria-labelledby="scores-h">
                <h2 id="scores-h">Scores</h2>
                <ScoreDistribution row={row} />
              </section>
              <section aria-labelledby="runs-h">
                <h2 id="runs-h">Event wins and undefeated runs</h2>
                <EventWins
                  filter={filter}
                  faction={faction}
                  page={Math.max(1, Number(params.eventsPage) || 1)}
                  onPage={(p) => update({ eventsPage: String(p) })}
                />
                <RunTheTable row={row} />
              </section>
              <section aria-labelledby="over-h">
                <h2 id="over-h">Over-representation</h2>
                <FactionOverRepresentation row={row} />
              </section>
            </>
          );
        }}
      </Show>
      <AgainstExpectation filter={filter} faction={faction} />
      <MatchupRow filter={filter} faction={faction} factions={system?.factions ?? []} />
      <TopItems filter={filter} faction={faction} />
      <ScenarioParts filter={filter} faction={faction} />
      <BestPlayers filter={filter} faction={faction} />
    </>
  );
}
