/**
 * Head to head on a player's page (docs/ratings.md "Head to head"): search an opponent, then the
 * forecast of this player against them from the current ratings and their past games. The
 * opponent is the URL's `vs`, so a shared link restores the comparison.
 */
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { EventLink, FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { SearchBox } from '../components/search-box.tsx';
import { Empty, Show } from '../components/status.tsx';
import { num, pct, playerName } from '../format.ts';
import type { CommonFilter } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { Params } from '../url-state.ts';
import type { Method } from '../rating-methods.ts';

interface Props {
  params: Params;
  update: (patch: Record<string, string | undefined>, replace?: boolean) => void;
  filter: CommonFilter;
  method: Method;
  player: { id: string; name: string | null };
}

/** Players whose name or id holds the search text, to choose the opponent from. */
function Candidates({
  filter,
  method,
  player,
  query,
  onPick,
}: Omit<Props, 'params' | 'update'> & {
  query: string;
  onPick: (id: string) => void;
}) {
  const body = { ...filter, method, search: query, includeProvisional: true, pageSize: 8 };
  const result = useApi(query ? JSON.stringify(body) : null, (signal) =>
    post('/api/rankings', body, signal),
  );
  if (!query) return null;
  return (
    <Show result={result} what="players">
      {({ data }) => {
        const others = data.players.filter((r) => r.player.id !== player.id);
        if (others.length === 0) return <Empty>No other player matches “{query}”.</Empty>;
        return (
          <ul class="candidates" aria-label="Players found">
            {others.map((r) => (
              <li key={r.player.id}>
                <button type="button" class="link" onClick={() => onPick(r.player.id)}>
                  {playerName(r.player)}
                </button>
                <span class="secondary"> {r.games} games</span>
              </li>
            ))}
          </ul>
        );
      }}
    </Show>
  );
}

type Game = NonNullable<AnswerOf<'/api/rankings'>['data']['versus']>['games'][number];

const GAME_COLUMNS: Array<Column<Game>> = [
  {
    key: 'event',
    label: 'Event',
    csv: [
      ['eventId', (g) => g.event.id],
      ['event', (g) => g.event.name],
      ['round', (g) => g.round],
      ['date', (g) => g.date],
    ],
    render: (g) => (
      <>
        <EventLink event={g.event} />
        {g.round !== null && <span class="secondary"> round {g.round}</span>}
      </>
    ),
  },
  {
    key: 'result',
    label: 'Result',
    numeric: true,
    csv: [
      ['result', (g) => g.result],
      ['score', (g) => g.score],
      ['opponentScore', (g) => g.opponentScore],
    ],
    render: (g) => (
      <>
        {g.result}
        {g.score !== null && ` ${num(g.score, 1)}–${num(g.opponentScore, 1)}`}
      </>
    ),
  },
  {
    key: 'factions',
    label: 'Factions',
    csv: [
      ['factionId', (g) => g.faction?.id],
      ['opponentFactionId', (g) => g.opponentFaction?.id],
    ],
    render: (g) => (
      <>
        {g.faction ? <FactionLink faction={g.faction} /> : '–'} v{' '}
        {g.opponentFaction ? <FactionLink faction={g.opponentFaction} /> : '–'}
      </>
    ),
  },
  { key: 'date', label: 'Date', optional: true, csv: [], render: (g) => g.date },
];

function Forecast({
  filter,
  method,
  player,
  opponent,
}: Omit<Props, 'params' | 'update'> & {
  opponent: string;
}) {
  const body = { ...filter, method, versus: [player.id, opponent], pageSize: 1 };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/rankings', body, signal));
  return (
    <Show result={result} what="the head to head">
      {({ data }) => {
        const v = data.versus!;
        const games = [...v.games].reverse();
        return (
          <div data-testid="head-to-head">
            <dl class="stats" aria-label="Head to head at a glance">
              <div>
                <dt>Opponent</dt>
                <dd>
                  <PlayerLink player={v.opponent} />
                </dd>
              </div>
              <div>
                <dt title="Expected score from the current ratings (win 1, draw ½)">
                  Forecast for {playerName(v.player)}
                </dt>
                <dd data-testid="forecast">
                  {v.expectedScore === null
                    ? method === 'points'
                      ? 'none (points do not forecast)'
                      : '–'
                    : pct(v.expectedScore, 0)}
                </dd>
              </div>
              <div>
                <dt>Past games (W / D / L)</dt>
                <dd>
                  {v.record.games} ({v.record.wins} / {v.record.draws} / {v.record.losses})
                </dd>
              </div>
            </dl>
            {v.games.length === 0 ? (
              <Empty>They have not played each other in scope.</Empty>
            ) : (
              <SortableTable
                caption="Their past games, latest first"
                label="Past games"
                name={`vs-${v.opponent.id}`}
                columns={GAME_COLUMNS}
                rows={games}
                rowKey={(g) => `${g.event.id}/${g.round ?? ''}/${games.indexOf(g)}`}
              />
            )}
          </div>
        );
      }}
    </Show>
  );
}

export function HeadToHead({ params, update, filter, method, player }: Props) {
  const query = params.vsq ?? '';
  return (
    <section aria-labelledby="h2h-h">
      <h2 id="h2h-h">Head to head</h2>
      <SearchBox
        label="Find an opponent"
        value={query}
        onSearch={(q) => update({ vsq: q }, true)}
      />
      {query && (
        <Candidates
          filter={filter}
          method={method}
          player={player}
          query={query}
          onPick={(id) => update({ vs: id, vsq: '' })}
        />
      )}
      {params.vs ? (
        <>
          <Forecast filter={filter} method={method} player={player} opponent={params.vs} />
          <button type="button" class="link" onClick={() => update({ vs: '' })}>
            Choose another opponent
          </button>
        </>
      ) : (
        !query && <p class="note">Search a name or id to see the forecast and past games.</p>
      )}
    </section>
  );
}
