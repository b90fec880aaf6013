/** Rankings: players by Glicko-2, Elo or best-N points, searchable and paged. */
import { post } from '../api.ts';
import { Pager } from '../components/pager.tsx';
import { SearchBox } from '../components/search-box.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { Define } from '../components/define.tsx';
import { DownloadCsv } from '../components/download.tsx';
import type { CsvValue } from '../csv.ts';
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
  points: 'Ranked by points: the sum of the player’s best event scores.',
};

/** The ranking as CSV: the page shown, every method's value (absent ones left empty). */
const PLAYER_CSV: ReadonlyArray<readonly [string, (p: PlayerRow) => CsvValue]> = [
  ['rank', (p) => p.rank],
  ['playerId', (p) => p.player.id],
  ['player', (p) => p.player.name],
  ['country', (p) => p.player.country],
  ['rating', (p) => p.rating],
  ['rd', (p) => p.rd],
  ['conservativeRating', (p) => p.conservativeRating],
  ['provisional', (p) => p.provisional],
  ['games', (p) => p.games],
  ['wins', (p) => p.wins],
  ['draws', (p) => p.draws],
  ['losses', (p) => p.losses],
  ['mainFaction', (p) => p.mainFaction?.name],
  ['lastPlayed', (p) => p.lastPlayed],
];

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
      <p class="note" data-testid="order-note">
        {ORDER_NOTE[method]} Here the filter bar's countries choose players by their own country.
      </p>
      <Show result={result} what="rankings">
        {({ data, meta }) => (
          <>
            <Warnings warnings={meta.warnings} />
            {data.players.length === 0 ? (
              <Empty>
                No players match{params.q ? ` "${params.q}"` : ''} with these filters.
                {method === 'glicko2' && params.provisional !== '1'
                  ? ' Provisional players (too few recent games) are left out; include them above.'
                  : ''}
              </Empty>
            ) : (
              <>
                <div class="table-wrap" tabIndex={0} role="region" aria-label="Rankings">
                  <table>
                    <caption class="sr-only">Players ranked by {methodName(method)}</caption>
                    <thead>
                      <tr>
                        <th scope="col" class="num">
                          Rank
                        </th>
                        <th scope="col">Player</th>
                        <th scope="col" class="opt">
                          Country
                        </th>
                        <th scope="col" class="num">
                          <span data-testid="order-column">
                            {method === 'points'
                              ? 'Points'
                              : method === 'elo'
                                ? 'Rating'
                                : 'Rating − 2·RD'}
                          </span>
                          {method !== 'points' && <Define k="rating" />}
                        </th>
                        {method === 'glicko2' && (
                          <th
                            scope="col"
                            class="num opt"
                            title="Rating deviation: the rating's uncertainty"
                          >
                            Rating ± RD <Define k="rd" />
                          </th>
                        )}
                        <th scope="col" class="num">
                          Games
                        </th>
                        <th scope="col" class="num opt">
                          W / D / L
                        </th>
                        <th scope="col" class="opt">
                          Main faction
                        </th>
                        <th scope="col" class="opt">
                          Last played
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.players.map((p) => (
                        <tr key={p.player.id}>
                          <td class="num">{p.rank}</td>
                          <th scope="row">
                            <PlayerLink player={p.player} />
                            {p.provisional && (
                              <span
                                class="badge"
                                title="Rating deviation above 110: too few recent games to rank with confidence"
                              >
                                provisional
                              </span>
                            )}
                          </th>
                          <td class="opt">{p.player.country ?? '–'}</td>
                          <td class="num" data-testid="order-value">
                            {method === 'glicko2'
                              ? num(p.conservativeRating, 0)
                              : num(p.rating, method === 'points' ? 1 : 0)}
                          </td>
                          {method === 'glicko2' && (
                            <td class="num opt secondary">
                              {num(p.rating, 0)} ± {num(p.rd, 0)}
                            </td>
                          )}
                          <td class="num">{p.games}</td>
                          <td class="num opt">
                            {p.wins} / {p.draws} / {p.losses}
                          </td>
                          <td class="opt">
                            {p.mainFaction ? <FactionLink faction={p.mainFaction} /> : '–'}
                          </td>
                          <td class="opt">{p.lastPlayed ?? '–'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <div class="table-tools">
                  <DownloadCsv
                    name={method}
                    header={PLAYER_CSV.map(([h]) => h)}
                    rows={() => data.players.map((p) => PLAYER_CSV.map(([, value]) => value(p)))}
                  />
                </div>
              </>
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
