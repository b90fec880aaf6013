/**
 * The parts of a faction's page that each ask their own route: its row of the matchup matrix,
 * its most taken items, its results per scenario part and its best players. Each loads, fails
 * and comes up empty on its own, so one slow answer does not hold up the rest.
 */
import { post } from '../api.ts';
import { DeltaBar } from '../components/delta-bar.tsx';
import { FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { rateColumns } from '../components/rate-columns.tsx';
import { ITEM_COLUMN, SKILL_COLUMN } from '../components/item-column.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show } from '../components/status.tsx';
import { isolate, num, pct } from '../format.ts';
import type { CommonFilter, ItemRow, MatchupCell, Rankings, ScenarioStats } from '../types.ts';
import { useApi } from '../use-api.ts';

interface SectionProps {
  filter: CommonFilter;
  faction: { id: string; name: string };
}

interface MatchupProps extends SectionProps {
  /** Every faction of the system, to name the opponents. */
  factions: ReadonlyArray<{ id: string; name: string }>;
}

type Opponent = MatchupCell & { name: string };

const MATCHUP_COLUMNS: Array<Column<Opponent>> = [
  {
    key: 'opponent',
    label: 'Against',
    sort: (r) => r.name,
    render: (r) => <FactionLink faction={{ id: r.opponent, name: r.name }} />,
  },
  ...rateColumns<Opponent>(),
  {
    key: 'shrunk',
    label: 'Shrunk',
    numeric: true,
    title: "Win rate pulled toward the faction's overall rate, more for few games",
    sort: (r) => r.shrunkWinRate,
    render: (r) => pct(r.shrunkWinRate),
  },
];

/** Its row of the matchup matrix: best and worst by the shrunk rate, then every opponent. */
export function MatchupRow({ filter, faction, factions }: MatchupProps) {
  const body = { ...filter, factions: [faction.id] };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/army-matchup', body, signal));
  return (
    <section aria-labelledby="matchups-h">
      <h2 id="matchups-h">Matchups</h2>
      <Show result={result} what="matchups">
        {({ data, meta }) => {
          const strength = meta.shrinkage?.priorStrength ?? null;
          const names = new Map(factions.map((f) => [f.id, f.name]));
          const rows: Opponent[] = data.cells
            .filter((c) => c.opponent !== faction.id && c.winRate !== null)
            .map((c) => ({ ...c, name: names.get(c.opponent) ?? c.opponent }))
            .sort(
              (a, b) =>
                (b.shrunkWinRate ?? 0) - (a.shrunkWinRate ?? 0) ||
                (b.winRate ?? 0) - (a.winRate ?? 0) ||
                b.games - a.games,
            );
          if (rows.length === 0) return <Empty>No games against other factions in scope.</Empty>;
          const line = (r: Opponent) => (
            <li key={r.opponent}>
              <FactionLink faction={{ id: r.opponent, name: r.name }} />{' '}
              <strong data-testid="shrunk-rate">{pct(r.shrunkWinRate, 0)}</strong>{' '}
              <span class="shrunk-mark">shrunk</span>{' '}
              <span class="secondary" data-testid="raw-rate">
                (raw {pct(r.winRate, 0)}, {r.games} {r.games === 1 ? 'game' : 'games'})
              </span>
            </li>
          );
          return (
            <>
              <div class="best-worst">
                <div>
                  <h3>Best matchups</h3>
                  <ol data-testid="best-matchups">{rows.slice(0, 3).map(line)}</ol>
                </div>
                <div>
                  <h3>Worst matchups</h3>
                  {/* Never the same opponent in both lists when there are few. */}
                  <ol data-testid="worst-matchups">
                    {rows
                      .slice(Math.max(3, rows.length - 3))
                      .reverse()
                      .map(line)}
                  </ol>
                </div>
              </div>
              <p class="note" data-testid="shrinkage-note">
                Ranked by the shrunk win rate, so a matchup of a few games does not top the list:
                each matchup's rate pulled toward the overall rate of {isolate(faction.name)}
                {strength === null
                  ? ' (no pull here: too few matchups to fit one, so shrunk equals raw)'
                  : strength >= 1_000_000
                    ? ' all the way (the matchups spread no more than chance would)'
                    : ` as if by ${num(strength, 0)} more games at that rate`}
                . The raw rate, from the games alone, is beside it and in the table.
              </p>
              <SortableTable
                caption={`${isolate(faction.name)} against each opponent. Muted rows have fewer than 30 games.`}
                columns={MATCHUP_COLUMNS}
                rows={rows}
                rowKey={(r) => r.opponent}
                muted={(r) => r.lowSample}
              />
            </>
          );
        }}
      </Show>
    </section>
  );
}

const ITEM_COLUMNS: Array<Column<ItemRow>> = [
  ITEM_COLUMN,
  {
    key: 'share',
    label: 'Share',
    numeric: true,
    csv: [['share', (r) => r.share]],
    render: (r) => pct(r.share, 0),
  },
  {
    key: 'winRate',
    label: 'Win rate with',
    numeric: true,
    optional: true,
    csv: [['winRate', (r) => r.winRate]],
    render: (r) => pct(r.winRate),
  },
  {
    key: 'delta',
    label: 'Delta (95 % interval)',
    numeric: true,
    csv: [
      ['delta', (r) => r.delta],
      ['deltaLow', (r) => r.deltaInterval?.low],
      ['deltaHigh', (r) => r.deltaInterval?.high],
    ],
    render: (r) => <DeltaBar value={r.delta} interval={r.deltaInterval} />,
  },
  SKILL_COLUMN,
];

/** Its most taken items, with what they do to the win rate. */
export function TopItems({ filter, faction }: SectionProps) {
  const body = { ...filter, factions: [faction.id], pageSize: 10 };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/item-use-stats', body, signal),
  );
  return (
    <section aria-labelledby="items-h">
      <h2 id="items-h">Most taken items</h2>
      <Show result={result} what="items">
        {({ data }) =>
          data.items.length === 0 ? (
            <Empty>
              No army lists of <bdi>{faction.name}</bdi> in scope.
            </Empty>
          ) : (
            <SortableTable
              caption="Items in most lists; the delta compares the win rate with and without the item (95 % interval), the skill-adjusted delta takes the players' ratings out."
              label="Most taken items"
              name="items"
              columns={ITEM_COLUMNS}
              csvExtra={[['lowSample', (r) => r.lowSample]]}
              rows={data.items}
              rowKey={(r) => `${r.item.category}/${r.item.name}`}
              muted={(r) => r.lowSample}
            />
          )
        }
      </Show>
    </section>
  );
}

type PartRow = ScenarioStats['data']['scenarios'][number]['factions'][number] & {
  key: string;
  kind: string;
  name: string;
};

const PART_COLUMNS: Array<Column<PartRow>> = [
  {
    key: 'part',
    label: 'Scenario part',
    sort: (r) => r.name,
    csv: [
      ['kind', (r) => r.kind],
      ['part', (r) => r.name],
    ],
    render: (r) => (
      <>
        {r.name}
        <small class="category">{r.kind}</small>
      </>
    ),
  },
  ...rateColumns<PartRow>(),
];

/** Scenario parts shown before "Show all": a phone screen and a half. */
const PART_LIMIT = 8;

/** Its results per scenario part (scenario, map, deployment, objectives). */
export function ScenarioParts({ filter, faction }: SectionProps) {
  const body = { ...filter, factions: [faction.id] };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/scenario-stats', body, signal),
  );
  return (
    <section aria-labelledby="parts-h">
      <h2 id="parts-h">Results per scenario part</h2>
      <Show result={result} what="scenario results">
        {({ data }) => {
          const rows: PartRow[] = data.scenarios.flatMap((s) =>
            s.factions
              .filter((f) => f.faction.id === faction.id && f.games > 0)
              .map((f) => ({ ...f, key: `${s.kind}/${s.name}`, kind: s.kind, name: s.name })),
          );
          if (rows.length === 0) return <Empty>No games with a recorded scenario in scope.</Empty>;
          // Every map, deployment and objective of the data makes dozens of rows: the most
          // played come first, the rest a tap away, and the CSV holds them all.
          const more = rows.length > PART_LIMIT;
          return (
            <SortableTable
              caption={`${isolate(faction.name)} per scenario part${more ? `: the ${PART_LIMIT} with most games of ${rows.length} (the CSV has all)` : ''}, mirror games left out. Muted rows have fewer than 30 games.`}
              name="scenario-parts"
              columns={PART_COLUMNS}
              rows={rows}
              rowKey={(r) => r.key}
              muted={(r) => r.lowSample}
              initialSort={{ key: 'games', desc: true }}
              limit={PART_LIMIT}
            />
          );
        }}
      </Show>
    </section>
  );
}

type PlayerRow = Rankings['data']['players'][number];

const PLAYER_COLUMNS: Array<Column<PlayerRow>> = [
  {
    key: 'rank',
    label: 'Rank',
    numeric: true,
    csv: [['rank', (p) => p.rank]],
    render: (p) => p.rank,
  },
  {
    key: 'player',
    label: 'Player',
    csv: [
      ['playerId', (p) => p.player.id],
      ['player', (p) => p.player.name],
    ],
    render: (p) => (
      <>
        <PlayerLink player={p.player} />
        {p.provisional && <span class="badge">provisional</span>}
      </>
    ),
  },
  {
    key: 'rating',
    label: 'Rating − 2·RD',
    numeric: true,
    csv: [
      ['conservativeRating', (p) => p.conservativeRating],
      ['provisional', (p) => p.provisional],
    ],
    render: (p) => num(p.conservativeRating, 0),
  },
  {
    key: 'wdl',
    label: 'W / D / L',
    numeric: true,
    csv: [
      ['wins', (p) => p.wins],
      ['draws', (p) => p.draws],
      ['losses', (p) => p.losses],
    ],
    render: (p) => `${p.wins} / ${p.draws} / ${p.losses}`,
  },
];

/**
 * Its best players: the Glicko-2 ranking over the games with the faction, by the Rankings
 * page's rule: established players only, else the provisional ones, marked, with the reason
 * (docs/ratings.md#conservative-order-and-provisional-players).
 */
export function BestPlayers({ filter, faction }: SectionProps) {
  const body = { ...filter, factions: [faction.id], pageSize: 10 };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/rankings', body, signal));
  return (
    <section aria-labelledby="players-h">
      <h2 id="players-h">Best players</h2>
      <Show result={result} what="players">
        {({ data }) =>
          data.players.length === 0 ? (
            <Empty>
              No rated games of <bdi>{faction.name}</bdi> in scope.
            </Empty>
          ) : (
            <>
              {data.provisionalFallback && (
                <p class="note provisional-fallback" data-testid="provisional-fallback">
                  {data.provisionalFallback}
                </p>
              )}
              <SortableTable
                caption={`Ranked by Glicko-2 (rating − 2·RD) over their games with ${isolate(faction.name)}`}
                label="Best players"
                name="players"
                columns={PLAYER_COLUMNS}
                rows={data.players}
                rowKey={(p) => p.player.id}
                rowHeader="player"
              />
            </>
          )
        }
      </Show>
    </section>
  );
}
