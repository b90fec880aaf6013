/**
 * A player's page (docs/ratings.md "A player's page"): rating over time with its uncertainty,
 * results per event with placement, record per faction, best and latest placements, and head
 * to head against a chosen opponent. One rankings request with `player` answers it.
 */
import { post } from '../api.ts';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import type { AnswerOf } from '../api.ts';
import { BandChart, dayOf } from '../components/band-chart.tsx';
import { EventLink, FactionLink } from '../components/entity-link.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct, playerName, titleText } from '../format.ts';
import { useApi } from '../use-api.ts';
import { entityHref } from '../url-state.ts';
import { MethodTabs } from '../components/method-tabs.tsx';
import type { Method } from '../rating-methods.ts';
import { methodOf } from '../rating-methods.ts';
import { MergeNote } from '../components/merge-note.tsx';
import { HeadToHead } from './head-to-head.tsx';
import { PlayerGames } from './player-games.tsx';
import type { PageProps } from './page-props.ts';

export type PlayerPageData = NonNullable<AnswerOf<'/api/rankings'>['data']['player']>;
type HistoryRow = PlayerPageData['history'][number];
type Placement = NonNullable<PlayerPageData['bestPlacement']>;

const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** "3rd of 24", "3rd", or "–". */
function placed(placement: number | null, participants: number | null = null): string {
  if (placement === null) return '–';
  return participants === null ? ordinal(placement) : `${ordinal(placement)} of ${participants}`;
}

/** The Placed cell: a team event's games carry no placing; a derived one says so. */
function PlacedCell({ h }: { h: HistoryRow }) {
  if (h.format === 'teams')
    return (
      <span class="secondary" title="A team event places no player on their own">
        team event
      </span>
    );
  if (h.placement === null)
    return (
      <span
        title={h.placementsWithheld ?? 'The source publishes no places and no rule derives them'}
      >
        –
      </span>
    );
  return (
    <>
      {placed(h.placement, h.participants)}
      {h.placements === 'derived' && <Derived rule={h.placementRule} />}
    </>
  );
}

function Derived({ rule }: { rule: string | null }) {
  return (
    <span class="secondary" title={`Derived by ${rule ?? 'a rule'}; the source publishes none`}>
      {' '}
      (derived)
    </span>
  );
}

function PlacementBox({ label, row }: { label: string; row: Placement | null }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {row ? ordinal(row.placement) : '–'}
        {row?.placements === 'derived' && <Derived rule={row.placementRule} />}
      </dd>
      {row && (
        <dd class="where">
          <EventLink event={row.event} /> <span class="secondary">{row.date}</span>
        </dd>
      )}
    </div>
  );
}

function RatingChart({ history, method }: { history: HistoryRow[]; method: Method }) {
  if (history.length === 0) return <Empty>No rated games in scope: no rating to draw.</Empty>;
  const glicko = method === 'glicko2';
  const points = history.map((h) => ({
    x: dayOf(h.date),
    value: h.rating,
    low: glicko && h.rd !== null ? h.rating - 2 * h.rd : null,
    high: glicko && h.rd !== null ? h.rating + 2 * h.rd : null,
  }));
  const what = method === 'points' ? 'Points' : 'Rating';
  return (
    <BandChart
      points={points}
      title={`${what} after each event`}
      valueLabel={what}
      bandLabel={glicko ? 'Rating ± 2·RD (95 % interval)' : ''}
      format={(v) => num(v, 0)}
    />
  );
}

function resultColumns(method: Method): Array<Column<HistoryRow>> {
  return [
    {
      key: 'event',
      label: 'Event',
      csv: [
        ['eventId', (h) => h.event.id],
        ['event', (h) => h.event.name],
      ],
      render: (h) => <EventLink event={h.event} />,
    },
    {
      key: 'date',
      label: 'Date',
      optional: true,
      csv: [['date', (h) => h.date]],
      render: (h) => h.date,
    },
    {
      key: 'placed',
      label: 'Placed',
      numeric: true,
      csv: [
        ['placement', (h) => h.placement],
        ['participants', (h) => h.participants],
        ['placements', (h) => h.placements],
      ],
      render: (h) => <PlacedCell h={h} />,
    },
    {
      key: 'wdl',
      label: 'W / D / L',
      numeric: true,
      csv: [
        ['wins', (h) => h.wins],
        ['draws', (h) => h.draws],
        ['losses', (h) => h.losses],
      ],
      render: (h) => `${h.wins} / ${h.draws} / ${h.losses}`,
    },
    {
      key: 'rating',
      label:
        method === 'points'
          ? 'Points after'
          : method === 'elo'
            ? 'Rating after'
            : 'Rating after (± RD)',
      numeric: true,
      csv: [
        [method === 'points' ? 'points' : 'rating', (h) => h.rating],
        ['rd', (h) => h.rd],
      ],
      render: (h) => (
        <>
          {num(h.rating, method === 'points' ? 1 : 0)}
          {h.rd !== null && <span class="secondary opt"> ± {num(h.rd, 0)}</span>}
        </>
      ),
    },
  ];
}

function ResultsTable({ history, method }: { history: HistoryRow[]; method: Method }) {
  if (history.length === 0) return null;
  return (
    <SortableTable
      caption="Results per event, latest first"
      label="Results per event"
      name="results"
      columns={resultColumns(method)}
      rows={[...history].reverse()}
      rowKey={(h) => h.event.id}
    />
  );
}

type FactionRecord = PlayerPageData['factions'][number];
const winRate = (f: FactionRecord) => (f.games ? (f.wins + f.draws / 2) / f.games : null);

const FACTION_COLUMNS: Array<Column<FactionRecord>> = [
  {
    key: 'faction',
    label: 'Faction',
    csv: [
      ['factionId', (f) => f.faction.id],
      ['faction', (f) => f.faction.name],
    ],
    render: (f) => <FactionLink faction={f.faction} />,
  },
  {
    key: 'games',
    label: 'Games',
    numeric: true,
    csv: [['games', (f) => f.games]],
    render: (f) => f.games,
  },
  {
    key: 'wdl',
    label: 'W / D / L',
    numeric: true,
    csv: [
      ['wins', (f) => f.wins],
      ['draws', (f) => f.draws],
      ['losses', (f) => f.losses],
    ],
    render: (f) => `${f.wins} / ${f.draws} / ${f.losses}`,
  },
  {
    key: 'winRate',
    label: 'Win rate',
    numeric: true,
    csv: [['winRate', winRate]],
    render: (f) => pct(winRate(f)),
  },
];

function FactionsTable({ factions }: { factions: FactionRecord[] }) {
  if (factions.length === 0) return <Empty>No rated games with a known faction in scope.</Empty>;
  return (
    <SortableTable
      caption="Record per faction played, most games first"
      label="Record per faction"
      name="factions"
      columns={FACTION_COLUMNS}
      rows={factions}
      rowKey={(f) => f.faction.id}
    />
  );
}

/**
 * The headline's deviation is today's, grown through the rating periods the player sat out
 * since their last event (docs/ratings.md#inactivity); the results table's last one is as it
 * stood after that event. Where the two differ, say why.
 */
function RdSince({ row, last }: { row: PlayerPageData['row']; last: HistoryRow | undefined }) {
  if (row?.rd == null || last?.rd == null || Math.round(row.rd) === Math.round(last.rd)) {
    return null;
  }
  return (
    <dd class="secondary" data-testid="rd-since">
      ± {num(last.rd, 0)} after their last event; it grows while they sit events out
    </dd>
  );
}

/** What a player page says when the id is not a player of the data: plain words, a way on. */
export function UnknownPlayer({ id, rankings }: { id: string; rankings: string }) {
  return (
    <div class="status empty" role="status" data-testid="unknown-player">
      <p>
        There is no player “{id}” in Muster’s data for this game system. The link may be mistyped,
        or the player may be in another system.
      </p>
      <p>
        <a href={rankings}>Find a player in the rankings</a>
      </p>
    </div>
  );
}

export function PlayerPage({ params, update, filter, system }: PageProps) {
  const id = params.player ?? '';
  const method = methodOf(params);
  // Ranked as the Rankings page ranks by default: a provisional player has no rank (null),
  // unless no player in scope is established (docs/ratings.md).
  const gamesPage = Math.max(1, Number.parseInt(params.gamesPage ?? '1', 10) || 1);
  const body = { ...filter, method, player: id, pageSize: 1, gamesPage };
  const result = useApi(id ? JSON.stringify(body) : null, (signal) =>
    post('/api/rankings', body, signal),
  );
  const rankings = entityHref(params, 'rankings', '');
  if (!id) {
    return (
      <>
        <h1>Player</h1>
        <Empty>No player chosen. Open one from the rankings.</Empty>
      </>
    );
  }
  if (result.state === 'error' && result.error.status === 404) {
    return (
      <>
        <h1>Player not found</h1>
        <UnknownPlayer id={id} rankings={rankings} />
      </>
    );
  }
  const page = result.state === 'error' ? undefined : result.data?.data.player;
  const name = page ? playerName(page.player) : `#${id}`;
  document.title = `${titleText(name)} · Muster`;
  return (
    <>
      <h1 class={page?.player.name?.trim() ? undefined : 'player-id'}>
        <bdi>{name}</bdi>
      </h1>
      <Show result={result} what="the player">
        {({ data, meta }) => {
          const p = data.player!;
          const row = p.row;
          return (
            <>
              <Warnings warnings={meta.warnings} />
              <MergeNote asked={id} mergedInto={p.mergedInto} merged={p.merged} />
              <MethodTabs method={method} onPick={(m) => update({ method: m })} />
              <dl class="stats" aria-label="The player at a glance">
                <div>
                  <dt>
                    {method === 'points' ? 'Points' : method === 'elo' ? 'Rating' : 'Rating ± RD'}
                  </dt>
                  <dd data-testid="player-rating">
                    {row ? num(row.rating, method === 'points' ? 1 : 0) : '–'}
                    {row?.rd != null && <span class="secondary"> ± {num(row.rd, 0)}</span>}
                  </dd>
                  <RdSince row={row} last={p.history.at(-1)} />
                </div>
                <div>
                  <dt>Rank</dt>
                  <dd>{row?.rank ?? (row?.provisional ? 'provisional' : '–')}</dd>
                </div>
                <div>
                  <dt>Games (W / D / L)</dt>
                  <dd>{row ? `${row.games} (${row.wins} / ${row.draws} / ${row.losses})` : '–'}</dd>
                </div>
                <PlacementBox label="Best placement" row={p.bestPlacement} />
                <PlacementBox label="Latest placement" row={p.latestPlacement} />
              </dl>
              {row?.provisional && (
                <p class="note">
                  {data.provisionalFallback
                    ? 'Provisional: the rating deviation is above 110 (too few recent games). No player in this scope is established, so the rankings list the provisional ones, marked, and this rank is among them.'
                    : 'Provisional: the rating deviation is above 110 (too few recent games), so the rankings leave this player out unless asked.'}
                </p>
              )}
              <section aria-labelledby="rating-h">
                <h2 id="rating-h">{method === 'points' ? 'Points' : 'Rating'} over time</h2>
                <RatingChart history={p.history} method={method} />
              </section>
              <section aria-labelledby="results-h">
                <h2 id="results-h">Results per event</h2>
                <ResultsTable history={p.history} method={method} />
              </section>
              <section aria-labelledby="factions-h">
                <h2 id="factions-h">Record per faction</h2>
                <FactionsTable factions={p.factions} />
              </section>
              <section aria-labelledby="games-h">
                <h2 id="games-h">Games one by one</h2>
                <PlayerGames
                  games={p.games}
                  method={method}
                  onPage={(n) => update({ gamesPage: n > 1 ? String(n) : undefined })}
                />
              </section>
              <HeadToHead
                params={params}
                update={update}
                filter={filter}
                method={method}
                player={p.player}
                factions={system?.factions ?? []}
                usual={p.factions[0]?.faction.id}
              />
            </>
          );
        }}
      </Show>
    </>
  );
}
