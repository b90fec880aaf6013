/**
 * A player's games one by one (docs/ratings.md "A player's page"): date, event, round, opponent,
 * both factions, the score, the result and the rating change each made, latest first, a page
 * of the rankings answer at a time.
 */
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { EventLink, FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { Pager } from '../components/pager.tsx';
import { Empty } from '../components/status.tsx';
import { num } from '../format.ts';
import type { Method } from '../rating-methods.ts';
import type { AnswerOf } from '../api.ts';

type Games = NonNullable<AnswerOf<'/api/rankings'>['data']['player']>['games'];
type Game = Games['rows'][number];

const RESULT_WORD = { win: 'Win', draw: 'Draw', loss: 'Loss' } as const;

const CHANGE_TITLE: Record<Method, string> = {
  glicko2:
    "The game's share of the change over its rating period (one event): Glicko-2 rates an event's games together, and an event's shares add up to its change",
  elo: 'The rating after the game minus before it',
  points: '',
};

function scoreText(g: Game): string {
  if (g.score === null && g.opponentScore === null) return '–';
  return `${num(g.score)}–${num(g.opponentScore)}`;
}

function changeText(v: number | null): string {
  if (v === null) return '–';
  const r = Math.round(v);
  return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : '0';
}

function columns(method: Method): Array<Column<Game>> {
  const cols: Array<Column<Game>> = [
    { key: 'date', label: 'Date', csv: [['date', (g) => g.date]], render: (g) => g.date },
    {
      key: 'event',
      label: 'Event',
      csv: [
        ['eventId', (g) => g.event.id],
        ['event', (g) => g.event.name],
      ],
      render: (g) => <EventLink event={g.event} />,
    },
    {
      key: 'round',
      label: 'Round',
      numeric: true,
      optional: true,
      csv: [['round', (g) => g.round]],
      render: (g) => g.round ?? '–',
    },
    {
      key: 'opponent',
      label: 'Opponent',
      csv: [
        ['opponentId', (g) => g.opponent.id],
        ['opponent', (g) => g.opponent.name],
      ],
      render: (g) => <PlayerLink player={g.opponent} />,
    },
    {
      key: 'factions',
      label: 'Faction v opponent’s',
      optional: true,
      csv: [
        ['faction', (g) => g.faction?.name ?? null],
        ['opponentFaction', (g) => g.opponentFaction?.name ?? null],
      ],
      render: (g) => (
        <>
          {g.faction ? <FactionLink faction={g.faction} /> : '–'}
          <span class="secondary"> v </span>
          {g.opponentFaction ? <FactionLink faction={g.opponentFaction} /> : '–'}
        </>
      ),
    },
    {
      key: 'score',
      label: 'Score',
      numeric: true,
      csv: [
        ['score', (g) => g.score],
        ['opponentScore', (g) => g.opponentScore],
      ],
      render: scoreText,
    },
    {
      key: 'result',
      label: 'Result',
      csv: [['result', (g) => g.result]],
      render: (g) => RESULT_WORD[g.result],
    },
  ];
  if (method === 'points') return cols;
  cols.push({
    key: 'change',
    label: method === 'glicko2' ? 'Rating change (share)' : 'Rating change',
    numeric: true,
    csv: [['ratingChange', (g) => g.ratingChange]],
    render: (g) => <span title={CHANGE_TITLE[method]}>{changeText(g.ratingChange)}</span>,
  });
  return cols;
}

/** The game list with its pager; the page number lives in the URL (gamesPage). */
export function PlayerGames({
  games,
  method,
  onPage,
}: {
  games: Games;
  method: Method;
  onPage: (page: number) => void;
}) {
  if (games.total === 0) return <Empty>No rated games in scope.</Empty>;
  return (
    <>
      <SortableTable
        caption={
          method === 'glicko2'
            ? "Every rated game, latest first. Glicko-2 updates a rating once per event: each game's change is its share of the event's change."
            : method === 'points'
              ? 'Every rated game, latest first. Points are scored per event, so no game has a change of its own.'
              : 'Every rated game, latest first, with the change each made to the Elo rating.'
        }
        label="Games one by one"
        name="games"
        columns={columns(method)}
        rows={games.rows}
        rowKey={(g) => `${g.event.id}|${g.round ?? ''}|${g.opponent.id}|${g.date}`}
        testId="player-games"
      />
      <Pager
        page={games.page}
        pageSize={games.pageSize}
        total={games.total}
        onPage={onPage}
        what="games"
      />
    </>
  );
}
