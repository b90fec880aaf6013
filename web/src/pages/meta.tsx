/** Meta: how each faction performs, the meta's diversity, and win rates over time. */
import { post } from '../api.ts';
import { FactionLink } from '../components/entity-link.tsx';
import { OverRepresentationSection } from '../components/over-representation.tsx';
import { rateColumns } from '../components/rate-columns.tsx';
import {
  OnePlayerBadge,
  onePlayerWarning,
  strengthColumn,
} from '../components/strength-column.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct, signed } from '../format.ts';
import type { FactionRow, FactionStrength, FactionStrengthRow } from '../types.ts';
import type { Loaded } from '../use-api.ts';
import { useApi } from '../use-api.ts';
import { listParam } from '../url-state.ts';
import { Trend } from './meta-trend.tsx';
import { MetaWindowNote } from './meta-window-note.tsx';
import { defaultPeriod, openedOn, openingWindow } from '../meta-window.ts';
import { useEffect } from 'preact/hooks';
import type { PageProps } from './page-props.ts';

/** The faction-strength row of each faction id, undefined while it loads or when it failed. */
type StrengthOf = (id: string) => FactionStrengthRow | undefined;

/** Meta's columns, the "after pilot skill" one read from faction-strength's answer. */
const columnsOf = (strengthOf: StrengthOf, loading: boolean): Array<Column<FactionRow>> => [
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
        <OnePlayerBadge share={strengthOf(r.faction.id)?.topPlayerShare} />
      </>
    ),
  },
  ...rateColumns(),
  // A faction with games but none the model counts (mirrors only, unrated pilots) gets "–".
  strengthColumn((r) => {
    const row = strengthOf(r.faction.id);
    return row === undefined ? (loading ? undefined : null) : row.strength;
  }, loading),
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

/** Each faction's row of faction-strength and its warnings, once (and while) one is shown. */
function strengthLookup(result: Loaded<FactionStrength>): {
  strengthOf: StrengthOf;
  warnings: string[];
} {
  const answer = result.state === 'error' ? undefined : result.data;
  const rows = answer?.data.factions ?? [];
  const byId = new Map(rows.map((r) => [r.faction.id, r]));
  // Only the one-player warning, in one line: the model's others repeat faction-stats' own.
  const warning = onePlayerWarning(rows);
  return { strengthOf: (id) => byId.get(id), warnings: warning === null ? [] : [warning] };
}

export function MetaPage({ params, update, filter, system }: PageProps) {
  const period: 'month' | 'quarter' =
    params.period === 'month' || params.period === 'quarter'
      ? params.period
      : defaultPeriod(system, params);
  const due = system === undefined ? null : openingWindow(system, params);
  // Until the opening window is in the URL, ask nothing: the answer would be all data's.
  const opening = due !== null && due.window === undefined;
  useEffect(() => {
    if (system === undefined) return;
    openedOn(system);
    if (due !== null) update(due, true);
  }, [system?.id, params.rules, params.from, params.to, params.window]);
  const body = { ...filter, groupBy: period };
  const result = useApi(opening ? null : JSON.stringify(body), (signal) =>
    post('/api/faction-stats', body, signal),
  );
  // The same filter: the column reads the same games; a fit takes longer, so it fills in after.
  const strength = useApi(opening ? null : JSON.stringify(filter), (signal) =>
    post('/api/faction-strength', filter, signal),
  );
  const { strengthOf, warnings } = strengthLookup(strength);
  return (
    <Show result={result} what="faction statistics">
      {({ data, meta }) => {
        if (data.factions.length === 0) return <Empty>No games match these filters.</Empty>;
        const top = data.factions.slice(0, 4).map((r) => r.faction.id);
        const chosen = params.trend === undefined ? top : listParam(params, 'trend');
        const d = data.summary.diversity;
        return (
          <>
            <Warnings warnings={[...meta.warnings, ...warnings]} />
            {system && <MetaWindowNote system={system} params={params} />}
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
              caption="Factions, strongest first (after pilot skill). Muted rows have fewer than 30 games."
              columns={columnsOf(strengthOf, strength.state === 'loading')}
              rows={data.factions}
              rowKey={(r) => r.faction.id}
              muted={(r) => r.lowSample}
              initialSort={{ key: 'strength', desc: true }}
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
                to={params.to || system?.to || undefined}
              />
            </section>
          </>
        );
      }}
    </Show>
  );
}
