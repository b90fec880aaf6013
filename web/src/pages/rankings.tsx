/** Rankings: players by Glicko-2, Elo or best-N points, searchable and paged. */
import { post } from '../api.ts';
import { Pager } from '../components/pager.tsx';
import { SearchBox } from '../components/search-box.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { FactionLink, PlayerLink } from '../components/entity-link.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { num } from '../format.ts';
import type { PlayerRow } from '../types.ts';
import { useApi } from '../use-api.ts';
import { MethodTabs } from '../components/method-tabs.tsx';
import type { Method } from '../rating-methods.ts';
import { methodName, methodOf } from '../rating-methods.ts';
import type { PageProps } from './page-props.ts';

const PAGE_SIZE = 25;

/** What the order is by, in one line (docs/ratings.md). */
const ORDER_NOTE: Record<Method, string> = {
  glicko2:
    'Ranked by rating − 2·RD, the low end of the rating’s 95 % interval, so a high rating from few games does not lead; the rating ± RD is shown beside it.',
  elo: 'Ranked by Elo rating after the player’s last game.',
  points:
    'Ranked by points: the sum of the player’s best event scores. Where the source publishes no places they are derived from the games by the system’s rule, and only at events whose games are mostly there.',
};

const WDL = (p: PlayerRow) => `${p.wins} / ${p.draws} / ${p.losses}`;

/**
 * The ranking's columns for a method; its CSV has every method's value (absent ones left empty)
 * in the order column's fields, whichever method orders it.
 */
function playerColumns(method: Method): Array<Column<PlayerRow>> {
  const columns: Array<Column<PlayerRow> | false> = [
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
          {p.provisional && (
            <span
              class="badge"
              title="Rating deviation above 110: too few recent games to rank with confidence"
            >
              provisional
            </span>
          )}
        </>
      ),
    },
    {
      key: 'country',
      label: 'Country',
      optional: true,
      hideEmpty: true,
      csv: [['country', (p) => p.player.country]],
      render: (p) => p.player.country ?? '–',
    },
    {
      key: 'order',
      label: (
        <span data-testid="order-column">
          {method === 'points' ? 'Points' : method === 'elo' ? 'Rating' : 'Rating − 2·RD'}
        </span>
      ),
      numeric: true,
      define: method === 'points' ? undefined : 'rating',
      testId: 'order-value',
      csv: [
        ['rating', (p) => p.rating],
        ['rd', (p) => p.rd],
        ['conservativeRating', (p) => p.conservativeRating],
        ['provisional', (p) => p.provisional],
      ],
      render: (p) =>
        method === 'glicko2'
          ? num(p.conservativeRating, 0)
          : num(p.rating, method === 'points' ? 1 : 0),
    },
    method === 'glicko2' && {
      key: 'rd',
      label: 'Rating ± RD ',
      numeric: true,
      optional: true,
      cellClass: 'secondary',
      title: "Rating deviation: the rating's uncertainty",
      define: 'rd',
      csv: [],
      render: (p) => `${num(p.rating, 0)} ± ${num(p.rd, 0)}`,
    },
    {
      key: 'games',
      label: 'Games',
      numeric: true,
      csv: [['games', (p) => p.games]],
      render: (p) => p.games,
    },
    {
      key: 'wdl',
      label: 'W / D / L',
      numeric: true,
      optional: true,
      csv: [
        ['wins', (p) => p.wins],
        ['draws', (p) => p.draws],
        ['losses', (p) => p.losses],
      ],
      render: WDL,
    },
    {
      key: 'faction',
      label: 'Main faction',
      optional: true,
      csv: [['mainFaction', (p) => p.mainFaction?.name]],
      render: (p) => (p.mainFaction ? <FactionLink faction={p.mainFaction} /> : '–'),
    },
    {
      key: 'lastPlayed',
      label: 'Last played',
      optional: true,
      csv: [['lastPlayed', (p) => p.lastPlayed]],
      render: (p) => p.lastPlayed ?? '–',
    },
  ];
  return columns.filter((c) => c !== false);
}

/** The method, the search and what narrows the players ranked, all kept in the URL. */
function RankingControls({
  params,
  update,
  system,
  method,
  minGames,
}: Pick<PageProps, 'params' | 'update' | 'system'> & { method: Method; minGames: number }) {
  return (
    <div class="controls">
      <MethodTabs method={method} onPick={(m) => update({ method: m, page: '' })} />
      <SearchBox
        label="Search players"
        value={params.q ?? ''}
        onSearch={(q) => update({ q, page: '' })}
      />
      <label>
        Faction played
        <select
          value={params.faction ?? ''}
          onChange={(e) =>
            update({ faction: (e.currentTarget as HTMLSelectElement).value, page: '' })
          }
        >
          <option value="">any faction</option>
          {system?.factions.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        At least
        <select
          value={String(minGames)}
          onChange={(e) =>
            update({ minGames: (e.currentTarget as HTMLSelectElement).value, page: '' })
          }
        >
          {[0, 5, 10, 20, 50].map((n) => (
            <option key={n} value={String(n)}>
              {n} games
            </option>
          ))}
        </select>
      </label>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={params.provisional === '1'}
          onChange={(e) =>
            update({
              provisional: (e.currentTarget as HTMLInputElement).checked ? '1' : '',
              page: '',
            })
          }
        />
        Include provisional players
      </label>
    </div>
  );
}

export function RankingsPage({ params, update, filter, system }: PageProps) {
  const method = methodOf(params);
  const page = Math.max(1, Number(params.page) || 1);
  const minGames = Math.max(0, Math.min(1000, Number(params.minGames) || 0));
  const body = {
    ...filter,
    method,
    ...(params.faction ? { factions: [params.faction] } : {}),
    ...(params.q ? { search: params.q } : {}),
    ...(minGames ? { minGames } : {}),
    // Glicko-2 leaves out players whose RD is above 110 unless asked (docs/ratings.md).
    ...(params.provisional === '1' ? { includeProvisional: true } : {}),
    page,
    pageSize: PAGE_SIZE,
  };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/rankings', body, signal));
  return (
    <>
      <RankingControls
        params={params}
        update={update}
        system={system}
        method={method}
        minGames={minGames}
      />
      <p class="note" data-testid="order-note">
        {ORDER_NOTE[method]}
        {/* Only where the bar offers countries (web/src/components/filter-bar.tsx). */}
        {((system?.countries.length ?? 0) > 1 || Boolean(params.countries)) &&
          " Here the filter bar's countries choose players by their own country."}
      </p>
      <Show result={result} what="rankings">
        {({ data, meta }) => (
          <>
            <Warnings warnings={meta.warnings} />
            {data.provisionalFallback && (
              <p class="note provisional-fallback" data-testid="provisional-fallback">
                {data.provisionalFallback}
              </p>
            )}
            {data.players.length === 0 ? (
              <Empty>
                No players match{params.q ? ` "${params.q}"` : ''} with these filters.
                {method === 'glicko2' && params.provisional !== '1' && !data.provisionalFallback
                  ? ' Provisional players (too few recent games) are left out; include them above.'
                  : ''}
              </Empty>
            ) : (
              <SortableTable
                caption={`Players ranked by ${methodName(method)}`}
                captionHidden
                label="Rankings"
                name={method}
                columns={playerColumns(method)}
                rows={data.players}
                rowKey={(p) => p.player.id}
                rowHeader="player"
              />
            )}
            <Pager
              page={data.page}
              pageSize={data.pageSize}
              total={data.total}
              what="players"
              onPage={(p) => update({ page: String(p) })}
            />
          </>
        )}
      </Show>
    </>
  );
}
