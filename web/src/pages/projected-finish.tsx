/**
 * A running event's projected finish (docs/event-projection.md): for each player a bar with
 * their chance to finish first and one with their chance of the top 8, as POST
 * /api/event-projection answers from the rounds played so far, with a line saying how the
 * figures are made. Fetched again with the page on each live change.
 */
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import { PlayerLink } from '../components/entity-link.tsx';
import { num, pct } from '../format.ts';
import { oneAtATime } from '../one-at-a-time.ts';
import { useApi } from '../use-api.ts';

type Projection = AnswerOf<'/api/event-projection'>['data'];

/** The projection counts a top cut of 8 (docs/event-projection.md#what-is-simulated). */
const CUT = 8;

function Bar({ label, value }: { label: string; value: number }) {
  return (
    <div class="chance" aria-label={`${label}: ${pct(value, 0)}`}>
      <span class="chance-track" aria-hidden="true">
        <span class="chance-fill" style={{ width: `${(value * 100).toFixed(1)}%` }} />
      </span>
      <span class="chance-text">
        {label} {pct(value, 0)}
      </span>
    </div>
  );
}

/** How the figures are made, in a line: what was simulated, how often, from which model. */
function Derivation({ data }: { data: Projection }) {
  const left = data.rounds - data.afterRound;
  return (
    <p class="secondary" data-testid="projection-derivation">
      From the standings after round {data.afterRound}: the {left} round{left === 1 ? '' : 's'} left
      simulated {num(data.simulations)} times, the round in progress at its announced tables and the
      rounds after it Swiss-paired within score groups, each game drawn from the{' '}
      <a href="/docs/ratings#the-joint-model">joint model</a> fitted to the games before the event;
      places by {data.rule}. Players by expected place; chances, not predictions of one result.
    </p>
  );
}

/** Shown on a running singles event's page; nothing for a team event or while it loads first. */
export function ProjectedFinish({
  event,
  version,
  system,
}: {
  event: string;
  /** Moves with each live change, so the projection is asked for again. */
  version: number;
  system?: string;
}) {
  const body = { ...(system ? { system } : {}), event };
  const result = useApi(`${JSON.stringify(body)}#${version}`, (signal) =>
    oneAtATime(() => post('/api/event-projection', body, signal)),
  );
  if (result.state === 'error')
    return (
      <p class="secondary" data-testid="projection-none">
        No projected finish: {result.error.message}
      </p>
    );
  if (result.data === undefined) return null;
  const data = result.data.data;
  // The field is the players with a game played: none before the first round's results.
  if (data.players.length === 0)
    return (
      <p class="secondary" data-testid="projection-none">
        No projected finish yet: it starts from the standings, and no round has been played.
      </p>
    );
  const cut = data.players.length > CUT;
  return (
    <section class="projected-finish" data-testid="projected-finish">
      <Derivation data={data} />
      <ol class="projection-rows">
        {data.players.map((p) => (
          <li key={p.player.id} data-testid="projection-row">
            <span class="projection-who">
              <PlayerLink player={p.player} />{' '}
              <span class="secondary">
                {p.wins}–{p.draws}–{p.losses}
              </span>
            </span>
            <Bar label="1st" value={p.chances.first} />
            {cut && <Bar label={`top ${CUT}`} value={p.chances.top8} />}
          </li>
        ))}
      </ol>
    </section>
  );
}
