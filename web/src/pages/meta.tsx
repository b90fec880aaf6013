/** Meta: how each faction performs, the meta's diversity, and win rates over time. */
import { post } from '../api.ts';
import { FactionLink } from '../components/entity-link.tsx';
import { OverRepresentationSection } from '../components/over-representation.tsx';
import { rateColumns } from '../components/rate-columns.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct, signed } from '../format.ts';
import type { FactionRow } from '../types.ts';
import { useApi } from '../use-api.ts';
import { listParam } from '../url-state.ts';
import { Trend } from './meta-trend.tsx';
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
