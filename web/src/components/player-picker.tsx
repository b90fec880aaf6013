/**
 * The one way to ask for a player (docs/operations.md#web-client): type part of a name or of an
 * id (the six characters a page shows for a player without a name, with or without its "#"),
 * pick from the players found. It searches as the Rankings page does (POST /api/rankings with
 * `search`, provisional players included), so whoever the rankings hold can be picked.
 */
import { useEffect } from 'preact/hooks';
import { post } from '../api.ts';
import { Empty, Show } from './status.tsx';
import { SearchBox } from './search-box.tsx';
import { num, playerName } from '../format.ts';
import type { CommonFilter } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { Method } from '../rating-methods.ts';

/** The search text as the rankings take it: a player shown as "#60546a" is found by "60546a". */
export const searchText = (query: string): string => query.trim().replace(/^#/, '');

interface PickerProps {
  /** The field's label, e.g. "Find an opponent". */
  label: string;
  /** The search text (kept by the page, in the URL). */
  query: string;
  onQuery: (query: string) => void;
  onPick: (id: string) => void;
  filter: CommonFilter;
  method?: Method;
  /** A player not to offer (the page's own). */
  exclude?: string;
}

function Candidates({
  filter,
  method,
  query,
  exclude,
  onPick,
}: Pick<PickerProps, 'filter' | 'method' | 'exclude' | 'onPick'> & { query: string }) {
  const body = {
    ...filter,
    method: method ?? 'glicko2',
    search: query,
    includeProvisional: true,
    pageSize: 8,
  };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/rankings', body, signal));
  return (
    <Show result={result} what="players">
      {({ data }) => {
        const found = data.players.filter((r) => r.player.id !== exclude);
        if (found.length === 0) return <Empty>No other player matches “{query}”.</Empty>;
        return (
          <ul class="candidates" aria-label="Players found" data-testid="player-candidates">
            {found.map((r) => (
              <li key={r.player.id}>
                <button
                  type="button"
                  class="link"
                  data-player={r.player.id}
                  onClick={() => onPick(r.player.id)}
                >
                  <bdi>{playerName(r.player)}</bdi>
                </button>
                {r.player.name?.trim() && (
                  <span class="secondary player-id"> #{r.player.shortId}</span>
                )}
                <span class="secondary"> {num(r.games)} games</span>
              </li>
            ))}
            {data.total > data.players.length && (
              <li class="secondary">
                {num(data.total)} players match: type more to narrow them down.
              </li>
            )}
          </ul>
        );
      }}
    </Show>
  );
}

/** A search field and the players it finds; picking one reports their whole id. */
export function PlayerPicker(props: PickerProps) {
  const query = searchText(props.query);
  return (
    <div class="player-picker">
      <SearchBox label={props.label} value={props.query} onSearch={props.onQuery} />
      {query && <Candidates {...props} query={query} />}
    </div>
  );
}

/**
 * The player a field holds, by name (or short id), found as the picker finds them; a field
 * holding only the start of one player's id (a shared link with the short id) is completed.
 */
export function ChosenPlayer({
  id,
  filter,
  onResolve,
}: {
  id: string;
  filter: CommonFilter;
  onResolve?: (id: string) => void;
}) {
  const body = { ...filter, search: searchText(id), includeProvisional: true, pageSize: 2 };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/rankings', body, signal));
  const data = result.state === 'error' ? undefined : result.data?.data;
  const only = data?.total === 1 ? data.players[0] : undefined;
  const whole = only?.player.id.startsWith(searchText(id)) ? only.player.id : undefined;
  useEffect(() => {
    if (whole !== undefined && whole !== id) onResolve?.(whole);
  }, [whole, id]);
  const row = data?.players.find((r) => r.player.id === id);
  if (row === undefined) return <bdi class="player-id">{id}</bdi>;
  return <bdi data-testid="chosen-player">{playerName(row.player)}</bdi>;
}
