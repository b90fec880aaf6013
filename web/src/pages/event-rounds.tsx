/**
 * An event's rounds (docs/http-api.md#events): every pairing with each side's player, faction,
 * result, score and, where the data has one, the list it played. Each round is folded to one line
 * (its name and games) below the standings, so the page's height is bounded by its rounds, not
 * its games: a team event of hundreds of games is a few lines until a round is opened.
 */
import type { AnswerOf } from '../api.ts';
import { TableCsv } from '../components/download.tsx';
import type { CsvValue } from '../csv.ts';
import { Empty } from '../components/status.tsx';
import { FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { TableForecast } from './table-forecast.tsx';

type EventData = NonNullable<AnswerOf<'/api/events'>['data']['event']>;
type Round = EventData['rounds'][number];
type Side = Round['games'][number]['sides'][number];

const RESULT_LABEL = { win: 'W', draw: 'D', loss: 'L' } as const;

function ListDetails({ list }: { list: NonNullable<Side['list']> }) {
  const picks = list.reduce((n, item) => n + item.picks, 0);
  return (
    <details class="side-list">
      <summary>List ({picks} picks)</summary>
      <ul>
        {list.map((item) => (
          <li key={item.name}>
            {item.picks > 1 ? `${item.picks}× ` : ''}
            {item.name} <span class="secondary">{item.category}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

function SideLine({ side }: { side: Side }) {
  return (
    <div class={`side ${side.result ?? 'unplayed'}`}>
      <span class="result" title={side.result ?? 'not played yet'}>
        {side.result === null ? '·' : RESULT_LABEL[side.result]}
      </span>
      <span class="who">
        {side.player === null ? (
          <span class="secondary">unknown player</span>
        ) : (
          <PlayerLink player={side.player} />
        )}
        <span class="secondary faction">
          <FactionLink faction={side.faction} />
        </span>
      </span>
      <span class="score num">{side.score ?? '–'}</span>
      {side.list !== null && <ListDetails list={side.list} />}
    </div>
  );
}

const SIDE_CSV = ['PlayerId', 'Player', 'FactionId', 'Faction', 'Result', 'Score'];

/** One side's CSV fields, in SIDE_CSV's order. */
const sideFields = (s: Side): CsvValue[] => [
  s.player?.id,
  s.player?.name,
  s.faction.id,
  s.faction.name,
  s.result,
  s.score,
];

/** The pairings as CSV: one row per game, its two sides as a… and b… columns. */
function roundsCsv(rounds: Round[]): CsvValue[][] {
  return rounds.flatMap((r) =>
    r.games.map((g, i) => [
      r.round,
      i + 1,
      g.table,
      g.scenario,
      ...sideFields(g.sides[0]),
      ...sideFields(g.sides[1]),
    ]),
  );
}

export function EventRounds({ rounds, system }: { rounds: Round[]; system?: string }) {
  if (rounds.length === 0) return <Empty>The data has no games of this event.</Empty>;
  return (
    <>
      <TableCsv
        name="rounds"
        header={[
          'round',
          'game',
          'table',
          'scenario',
          ...SIDE_CSV.map((f) => `a${f}`),
          ...SIDE_CSV.map((f) => `b${f}`),
        ]}
        rows={() => roundsCsv(rounds)}
      />
      <div class="rounds" data-testid="rounds">
        {rounds.map((r) => (
          <details
            key={r.round ?? 'unknown'}
            class="round"
            aria-label={roundName(r)}
            open={r.games.some((g) => !g.played)}
          >
            <summary>
              <h4>{roundName(r)}</h4>{' '}
              <span class="secondary">
                {r.games.length} {r.games.length === 1 ? 'game' : 'games'}
                {inProgress(r)}
              </span>
            </summary>
            <ol class="pairings">
              {r.games.map((g, i) => (
                <li key={i} class="pairing">
                  {g.table !== null && <p class="table-no secondary">Table {g.table}</p>}
                  <SideLine side={g.sides[0]} />
                  <SideLine side={g.sides[1]} />
                  {g.scenario !== null && <p class="scenario secondary">{g.scenario}</p>}
                  {!g.played && <TableForecast game={g} system={system} />}
                </li>
              ))}
            </ol>
          </details>
        ))}
      </div>
    </>
  );
}

/** ", in progress: N to play" while some of the round's games are paired but not played. */
function inProgress(r: Round): string {
  const open = r.games.filter((g) => !g.played).length;
  return open === 0 ? '' : `, in progress: ${open} to play`;
}

function roundName(r: Round): string {
  return r.round === null ? 'Round not recorded' : `Round ${r.round}`;
}
