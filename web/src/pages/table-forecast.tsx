/**
 * The forecast of one table of a round in progress (docs/http-api.md#the-joint-model-routes):
 * the first player's expected share of the result with its 95 % interval and P(win/draw/loss),
 * from the joint model over all of the system's games, as POST /api/forecast answers it.
 */
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import { pct } from '../format.ts';
import { oneAtATime } from '../one-at-a-time.ts';
import { useApi } from '../use-api.ts';

type EventData = NonNullable<AnswerOf<'/api/events'>['data']['event']>;
type Game = EventData['rounds'][number]['games'][number];

/** Shown below an unplayed game with two known players; nothing for a game that lacks one. */
export function TableForecast({ game, system }: { game: Game; system?: string }) {
  const [a, b] = game.sides;
  const known = a.player !== null && b.player !== null;
  const body = known
    ? {
        ...(system ? { system } : {}),
        player1: a.player!.id,
        faction1: a.faction.id,
        player2: b.player!.id,
        faction2: b.faction.id,
      }
    : null;
  const result = useApi(body === null ? null : JSON.stringify(body), (signal) =>
    oneAtATime(() => post('/api/forecast', body!, signal)),
  );
  if (body === null || result.state !== 'done') return null;
  const { expected1, interval, probabilities } = result.data.data;
  const first = a.player!.name ?? `#${a.player!.id.slice(0, 6)}`;
  return (
    <p class="table-forecast secondary" data-testid="table-forecast">
      Forecast for {first}: {pct(expected1, 0)} of the result ({pct(interval.low, 0)}–
      {pct(interval.high, 0)}), win {pct(probabilities.win, 0)} · draw {pct(probabilities.draw, 0)}{' '}
      · loss {pct(probabilities.loss, 0)}
    </p>
  );
}
