/**
 * An event's standings (docs/statistics.md#standings): where its placings come from, said in
 * words, and one row per entry, with a Place column only where the event has places (a running
 * event's order so far in a "Now" column instead, docs/statistics.md#running-events).
 */
import { Empty } from '../components/status.tsx';
import { FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { isolate, num } from '../format.ts';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import type { AnswerOf } from '../api.ts';

type EventData = NonNullable<AnswerOf<'/api/events'>['data']['event']>;

type Standing = EventData['standings'][number];

const STANDING_COLUMNS: Array<Column<Standing>> = [
  {
    key: 'place',
    label: 'Place',
    numeric: true,
    csv: [['placement', (s) => s.placement]],
    render: (s) => s.placement ?? '–',
  },
  {
    key: 'now',
    label: 'Now',
    numeric: true,
    title: 'Place in the order so far, after the games played: not a final place',
    csv: [['currentPlace', (s) => s.currentPlace]],
    render: (s) => s.currentPlace ?? '–',
  },
  {
    key: 'player',
    label: 'Player',
    csv: [
      ['playerId', (s) => s.player.id],
      ['player', (s) => s.player.name],
    ],
    render: (s) => (
      <>
        <PlayerLink player={s.player} />
        {s.undefeated && (
          <span class="badge" title="Played at least one game and lost none">
            undefeated
          </span>
        )}
      </>
    ),
  },
  {
    key: 'faction',
    label: 'Faction',
    csv: [
      ['factionId', (s) => s.faction?.id],
      ['faction', (s) => s.faction?.name],
    ],
    render: (s) => (s.faction ? <FactionLink faction={s.faction} /> : '–'),
  },
  {
    key: 'wdl',
    label: 'W/D/L',
    numeric: true,
    nowrap: true,
    title: 'Wins / draws / losses',
    csv: [
      ['wins', (s) => s.wins],
      ['draws', (s) => s.draws],
      ['losses', (s) => s.losses],
    ],
    render: (s) => `${s.wins} / ${s.draws} / ${s.losses}`,
  },
  {
    key: 'score',
    label: 'Score',
    numeric: true,
    optional: true,
    csv: [
      ['score', (s) => s.score],
      ['undefeated', (s) => s.undefeated],
    ],
    render: (s) => num(s.score, 0),
  },
];

/**
 * The Player column of derived places: an entry that played fewer games than the others is
 * ranked on a total over fewer games, so it says so beside the name, which a phone keeps
 * (docs/statistics.md#standings).
 */
function playerColumn(most: number): Column<Standing> {
  const base = STANDING_COLUMNS.find((c) => c.key === 'player')!;
  return {
    ...base,
    render: (s) => (
      <>
        {base.render(s)}
        {s.fewerGames && (
          <span
            class="badge fewer-games"
            data-testid="fewer-games"
            title={`Ranked on the total of ${num(s.games)} games; others played ${num(most)}, and a missing game counts as nothing`}
          >
            {num(s.games)} of {num(most)} games
          </span>
        )}
      </>
    ),
  };
}

/** One column per tie-breaker the event declares, after the score (docs/statistics.md#tie-breakers). */
function tieBreakColumns(data: EventData): Array<Column<Standing>> {
  return data.tieBreakers.flatMap((t, i) => {
    // The score and the wins have columns of their own already (Score, W/D/L).
    if (t.key === 'score' || t.key === 'wins') return [];
    const decimals = decimalsOf(data.standings.map((s) => s.tieBreaks[i]));
    return [
      {
        key: `tie-${t.key}`,
        label: t.title,
        numeric: true,
        optional: true,
        title: `Tie-breaker ${i + 1}: ${t.title}`,
        csv: [[t.key, (s: Standing) => s.tieBreaks[i]]],
        render: (s: Standing) => num(s.tieBreaks[i], decimals),
      },
    ];
  });
}

/** One number of decimals for a whole column: none for whole numbers, one for halves, else two. */
function decimalsOf(values: readonly (number | null)[]): number {
  const known = values.filter((v): v is number => v !== null);
  if (known.every(Number.isInteger)) return 0;
  return known.every((v) => Number.isInteger(v * 2)) ? 1 : 2;
}

export function Standings({ data }: { data: EventData }) {
  if (data.standings.length === 0) return <Empty>This event has no standings in the data.</Empty>;
  const most = Math.max(...data.standings.map((s) => s.games));
  // No places, no Place column (a team event's, or none published and no rule to derive them).
  // Places derived by a rule rank by the score: on a phone the score stays beside the place
  // and W/D/L gives way.
  // A running event has no places yet: its order so far stands in a column of its own ("Now").
  const running = data.standings.some((s) => s.currentPlace !== null);
  const placements =
    running && data.event.placementRule !== null ? 'derived' : data.event.placements;
  const columns = (
    placements === 'none'
      ? STANDING_COLUMNS.filter((c) => c.key !== 'place')
      : placements === 'derived'
        ? STANDING_COLUMNS.map((c) =>
            c.key === 'score'
              ? { ...c, optional: false }
              : c.key === 'player'
                ? playerColumn(most)
                : c.key === 'wdl'
                  ? { ...c, optional: true }
                  : c,
          )
        : STANDING_COLUMNS
  ).filter((c) => (running ? c.key !== 'place' : c.key !== 'now'));
  return (
    <SortableTable
      caption={`Standings of ${isolate(data.event.name)}`}
      captionHidden
      label="Standings"
      name="standings"
      testId="standings"
      columns={[...columns, ...tieBreakColumns(data)]}
      rows={data.standings}
      rowKey={(s) => s.player.id}
      rowHeader="player"
      rowData={(s) => ({ 'data-player': s.player.id })}
    />
  );
}

/** Where the event's placings come from, in words: published, derived by a rule, or none. */
export function placementWords(data: EventData, system = 'its game system'): string {
  const event = data.event;
  if (event.format === 'teams' && data.teams === null)
    return 'Team event: the source gives no teams, so no player is placed on their own; every game is under Rounds.';
  if (event.format === 'teams')
    return "Team event: no player is placed on their own. The teams are as the source gives them, with their members' games summed; no team scoring is declared, so no team is placed.";
  if (event.running) {
    const order = data.standings.some((s) => s.currentPlace !== null)
      ? ` The standings are the order so far ("Now"), ${event.placementRule === null ? 'as the source publishes it' : `by ${event.placementRule}, the rule ${system} declares`}: no winner and no places until the last game is played.`
      : ' No winner and no places until the last game is played.';
    return `Running: a round is in progress.${order}`;
  }
  if (event.placements === 'published') return 'Places as the source publishes them.';
  if (event.placements === 'derived') {
    const short = data.standings.filter((s) => s.fewerGames).length;
    const marked =
      short === 0
        ? ''
        : ` ${short === 1 ? 'One entry' : `${num(short)} entries`} played fewer games than the others and ${short === 1 ? 'is' : 'are'} ranked on a total over fewer games (marked "of … games").`;
    return `Places derived by ${event.placementRule ?? 'a rule'}, the rule ${system} declares; the source publishes none. A rule derives places only when at least three quarters of the declared entrants have games and at least three quarters of their games are recorded.${marked}`;
  }
  if (event.placementsWithheld !== null && event.placementsWithheld !== undefined)
    return `No places: the source publishes none, and ${system}'s rule derives them only when at least three quarters of the declared entrants have games and at least three quarters of the games those players would have played are recorded; ${event.placementsWithheld}.`;
  return `No places: the source publishes none and ${system} declares no rule to derive them.`;
}

/** Which tie-breakers the standings show, in words; empty for a team event. */
export function tieBreakWords(data: EventData, system = 'its game system'): string {
  if (data.event.format === 'teams') return '';
  if (data.tieBreakers.length === 0)
    return ` ${system} declares no tie-breaker the source can give: equal players share a place.`;
  return ` Tie-breakers ${system} declares, in order: ${data.tieBreakers.map((t) => t.title).join(', ')}.`;
}

export function PlacementNote({ data, system }: { data: EventData; system?: string }) {
  return (
    <p
      class="note placement-note"
      data-testid="placement-note"
      data-placements={data.event.placements}
    >
      {placementWords(data, system)}
      {tieBreakWords(data, system)}
    </p>
  );
}
