/**
 * Forecasts: one game between two players and their factions from the joint model, and about
 * the forecasts, how well four models' forecasts held up on the games of the filter
 * (forecast-about.tsx, docs/ratings.md#forecast-accuracy).
 */
import { post } from '../api.ts';
import type { RequestOf } from '../api.ts';
import { ChosenPlayer, PlayerPicker } from '../components/player-picker.tsx';
import { Show, Warnings } from '../components/status.tsx';
import { pct } from '../format.ts';
import { useApi } from '../use-api.ts';
import { AboutForecasts } from './forecast-about.tsx';
import type { PageProps } from './page-props.ts';

/** A part of the forecast on the logit scale, signed. */
const logit = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)}`;

export function ForecastPage({ params, update, filter, system }: PageProps) {
  const factions = system?.factions ?? [];
  const p1 = params.p1 ?? '';
  const p2 = params.p2 ?? '';
  const f1 = params.f1 || factions[0]?.id || '';
  const f2 = params.f2 || factions[1]?.id || f1;
  return (
    <>
      <section aria-labelledby="forecast-h">
        <h2 id="forecast-h">Forecast a game</h2>
        <form class="forecast-form" onSubmit={(e) => e.preventDefault()}>
          {(
            [
              ['p1', 'f1', p1, f1, 'Player 1'],
              ['p2', 'f2', p2, f2, 'Player 2'],
            ] as const
          ).map(([pk, fk, pv, fv, label]) => (
            <fieldset key={pk}>
              <legend>{label}</legend>
              {pv ? (
                <p class="chosen">
                  <ChosenPlayer
                    id={pv}
                    filter={filter}
                    onResolve={(whole) => update({ [pk]: whole }, true)}
                  />{' '}
                  <button
                    type="button"
                    class="link"
                    onClick={() => update({ [pk]: undefined }, true)}
                  >
                    change
                  </button>
                </p>
              ) : (
                <PlayerPicker
                  label="Find a player by name or id"
                  query={params[`${pk}q`] ?? ''}
                  onQuery={(q) => update({ [`${pk}q`]: q }, true)}
                  onPick={(id) => update({ [pk]: id, [`${pk}q`]: undefined }, true)}
                  filter={filter}
                  exclude={pk === 'p1' ? p2 : p1}
                />
              )}
              <label>
                Faction{' '}
                <select value={fv} onChange={(e) => update({ [fk]: e.currentTarget.value }, true)}>
                  {factions.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name}
                    </option>
                  ))}
                </select>
              </label>
            </fieldset>
          ))}
        </form>
        {p1 && p2 && f1 && f2 ? (
          <OneForecast
            body={{ system: filter.system, player1: p1, faction1: f1, player2: p2, faction2: f2 }}
          />
        ) : (
          <p class="note">
            Find two players (part of a name, or of the id a page shows) to see the forecast.
          </p>
        )}
      </section>
      <AboutForecasts filter={filter} />
    </>
  );
}

type ForecastBody = RequestOf<'/api/forecast'>;

function OneForecast({ body }: { body: ForecastBody }) {
  const result = useApi(JSON.stringify(body), (signal) => post('/api/forecast', body, signal));
  return (
    <Show result={result} what="the forecast">
      {({ data, meta }) => (
        <>
          <Warnings warnings={meta.warnings} />
          <dl class="stats" data-testid="forecast">
            <div>
              <dt>Player 1's expected score (95 % interval)</dt>
              <dd>
                {pct(data.expected1)}{' '}
                <span class="secondary">
                  {pct(data.interval.low, 0)}–{pct(data.interval.high, 0)}
                </span>
              </dd>
            </div>
            <div>
              <dt>Win / draw / loss</dt>
              <dd>
                {pct(data.probabilities.win, 0)} / {pct(data.probabilities.draw, 0)} /{' '}
                {pct(data.probabilities.loss, 0)}
              </dd>
            </div>
            <div>
              <dt>Parts (logit): skill, faction, matchup</dt>
              <dd>
                {logit(data.parts.skill)}, {logit(data.parts.faction)}, {logit(data.parts.matchup)}
              </dd>
            </div>
          </dl>
          <p class="note" data-testid="expected-v-win">
            The expected score is the share of the game's result player 1 is expected to take
            {data.outcome === 'score-share' ? ' (here, of its points)' : ' (a draw half)'}; win /
            draw / loss are the chances of each result. They are different figures and need not
            agree: a player taking 60 % of the points in every game would win every game.
          </p>
        </>
      )}
    </Show>
  );
}
