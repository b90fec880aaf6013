/**
 * Strength: is it the player or the army? Each faction's raw win rate beside its strength after
 * pilot skill, each with its 95 % interval (docs/statistics.md#faction-strength).
 */
import { post } from '../api.ts';
import { FactionLink } from '../components/entity-link.tsx';
import { IntervalBar } from '../components/interval-bar.tsx';
import {
  OnePlayerBadge,
  onePlayerWarning,
  strengthColumn,
} from '../components/strength-column.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct } from '../format.ts';
import type { FactionStrengthRow } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

const COLUMNS: Array<Column<FactionStrengthRow>> = [
  {
    key: 'faction',
    label: 'Faction',
    sort: (r) => r.faction.name,
    render: (r) => (
      <>
        <FactionLink faction={r.faction} />
        <OnePlayerBadge share={r.topPlayerShare} />
      </>
    ),
  },
  {
    key: 'games',
    label: 'Games',
    numeric: true,
    sort: (r) => r.games,
    render: (r) => num(r.games),
  },
  {
    key: 'winRate',
    label: 'Raw win rate',
    numeric: true,
    title:
      "Wins + draws/2 over the model's games (two known players, one point shared: double losses out), mirrors out, with its 95 % Wilson interval; Meta's win rate counts every game, so the two can differ",
    sort: (r) => r.winRate,
    render: (r) => (
      <IntervalBar
        value={r.winRate}
        low={r.winRateInterval?.low ?? null}
        high={r.winRateInterval?.high ?? null}
      />
    ),
  },
  strengthColumn((r) => r.strength),
  {
    key: 'pilots',
    label: 'Pilot rating',
    numeric: true,
    title:
      "Mean pre-game Glicko-2 rating of its pilots; in brackets the field's, the mean over every side in the model, to compare with",
    sort: (r) => r.pilotRating,
    render: (r) => (
      <>
        {num(r.pilotRating)} <small class="secondary">(field {num(r.fieldRating)})</small>
      </>
    ),
  },
  {
    key: 'top',
    label: 'Top player',
    numeric: true,
    title: 'Share of its games played by its most frequent player',
    sort: (r) => r.topPlayerShare,
    render: (r) => pct(r.topPlayerShare, 0),
  },
];

export function StrengthPage({ filter }: PageProps) {
  const result = useApi(JSON.stringify(filter), (signal) =>
    post('/api/faction-strength', filter, signal),
  );
  return (
    <Show result={result} what="faction strength">
      {({ data, meta }) => {
        if (data.factions.length === 0) return <Empty>No rated games match these filters.</Empty>;
        return (
          <>
            <Warnings
              warnings={[
                ...meta.warnings.filter((w) => !w.startsWith('one player')),
                ...[onePlayerWarning(data.factions) ?? []].flat(),
              ]}
            />
            <p class="note">
              A faction can win because it is strong or because strong players pick it. "After pilot
              skill" takes the players' ratings out: it is the expected score of an average pilot of
              the faction against the field, from one model of skill, faction and matchup fitted to{' '}
              {num(data.model.games)} games. Greyed: its interval spans 50 %. The raw win rate here
              counts the same games as the model (two known players, one point shared between the
              sides, so double losses are out); Meta's counts every game, so the two can differ by a
              point or so.
            </p>
            <SortableTable
              caption="Faction strength after pilot skill beside the raw win rate. Muted rows have fewer than 30 games."
              columns={COLUMNS}
              rows={data.factions}
              rowKey={(r) => r.faction.id}
              muted={(r) => r.lowSample}
              initialSort={{ key: 'strength', desc: true }}
              name="faction-strength"
              testId="strength-table"
            />
          </>
        );
      }}
    </Show>
  );
}
