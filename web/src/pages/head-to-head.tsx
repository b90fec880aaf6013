/**
 * Head to head on a player's page (docs/ratings.md "Head to head"): search an opponent, then the
 * forecast of this player against them and their past games. With both factions known (their
 * last game against each other, the player's usual army, or picked: the URL's `vf1`, `vf2`) the
 * forecast is the joint model's (POST /api/forecast: skill, faction and matchup), else the
 * ratings' alone; it says which. The opponent is the URL's `vs`, so a shared link restores it.
 */
import { post } from '../api.ts';
import type { AnswerOf, RequestOf } from '../api.ts';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { EventLink, FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { PlayerPicker } from '../components/player-picker.tsx';
import { Empty, Show } from '../components/status.tsx';
import { isolate, num, pct, playerName } from '../format.ts';
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
  /** The system's factions, to pick from. */
  factions: ReadonlyArray<{ id: string; name: string }>;
  /** The player's most played faction in scope, the default for their side. */
  usual?: string;
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

/** The joint model's forecast of the player's side for two factions, naming the model. */
function JointForecast({ body }: { body: ForecastBody }) {
  const result = useApi(JSON.stringify(body), (signal) => post('/api/forecast', body, signal));
  if (result.state === 'error') return <span class="secondary">– ({result.error.title})</span>;
  if (result.data === undefined) return <span class="secondary">…</span>;
  const d = result.data.data;
  return (
    <>
      {pct(d.expected1, 0)}{' '}
      <small class="secondary">
        {pct(d.interval.low, 0)}–{pct(d.interval.high, 0)}
      </small>
    </>
  );
}

type ForecastBody = RequestOf<'/api/forecast'>;

/** One side's faction: picked, or "not known". */
function FactionPick({
  label,
  value,
  factions,
  onPick,
}: {
  label: string;
  value: string;
  factions: Props['factions'];
  onPick: (id: string) => void;
}) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => onPick(e.currentTarget.value)}>
        <option value="">not known</option>
        {factions.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
    </label>
  );
}

type Quality = AnswerOf<'/api/rankings'>['meta']['predictionQuality'];

/** Brier scores of the ratings and of the coin flip, and over how many games. */
interface Versus {
  games: number;
  brier: number;
  coin: number;
  what: string;
}

/** The backtest's rating-only model against its coin flip (About the forecasts), if worse. */
function useBacktestLoss(filter: CommonFilter): Versus | null {
  const result = useApi(JSON.stringify(filter), (signal) =>
    post('/api/forecast-accuracy', filter, signal),
  );
  const models = result.state === 'error' ? undefined : result.data?.data.models;
  const rating = models?.find((m) => m.model === 'rating');
  const coin = models?.find((m) => m.model === 'coin');
  if (rating?.brier == null || coin?.brier == null || rating.brier <= coin.brier) return null;
  return { games: rating.games, brier: rating.brier, coin: coin.brier, what: 'backtest' };
}

/**
 * A ratings-only forecast is never quoted without saying when, on the games in scope, the
 * ratings forecast worse than a coin flip: by the method's own prediction quality
 * (docs/ratings.md#prediction-quality) or by the backtest of About the forecasts
 * (docs/ratings.md#forecast-accuracy), whichever says so.
 */
function CoinFlipWarning({ quality, filter }: { quality: Quality; filter: CommonFilter }) {
  const backtest = useBacktestLoss(filter);
  const own =
    quality && quality.brier > quality.coinFlip.brier
      ? { games: quality.games, brier: quality.brier, coin: quality.coinFlip.brier, what: 'own' }
      : null;
  const loss = own ?? backtest;
  if (loss === null) return null;
  return (
    <small class="coin-flip-warning" data-testid="coin-flip-warning">
      On the {num(loss.games)} games in scope, forecasts from the ratings alone score worse than a
      coin flip (Brier {num(loss.brier, 4)} against {num(loss.coin, 4)}
      {loss.what === 'backtest' ? ', in About the forecasts' : ''}): read the ratings’ figure with
      that in mind.
    </small>
  );
}

/** Which model the forecast comes from, in words. */
function modelNote(joint: boolean, method: Method): string {
  if (joint) return 'Joint model: the players’ ratings, their factions and the matchup';
  if (method === 'points') return 'Points do not forecast; pick both factions for the joint model';
  return `${method === 'elo' ? 'Elo' : 'Glicko-2'} ratings only; pick both factions for the joint model`;
}

function Forecast({
  params,
  update,
  filter,
  method,
  player,
  opponent,
  factions,
  usual,
}: Props & { opponent: string }) {
  const body = { ...filter, method, versus: [player.id, opponent], pageSize: 1 };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/rankings', body, signal));
  return (
    <Show result={result} what="the head to head">
      {({ data, meta }) => {
        const v = data.versus!;
        const games = [...v.games].reverse();
        // The factions of their last game against each other, else the player's usual one;
        // "-" is "not known" picked (an empty parameter would fall back to the default).
        const picked = (p: string | undefined, fallback: string | undefined) =>
          p === '-' ? '' : (p ?? fallback ?? '');
        const f1 = picked(params.vf1, games[0]?.faction?.id ?? usual);
        const f2 = picked(params.vf2, games[0]?.opponentFaction?.id);
        const joint = f1 !== '' && f2 !== '';
        const rating =
          v.expectedScore === null
            ? method === 'points'
              ? 'none (points do not forecast)'
              : '–'
            : pct(v.expectedScore, 0);
        return (
          <div data-testid="head-to-head">
            <div class="controls">
              <FactionPick
                label={`${isolate(playerName(v.player))} plays`}
                value={f1}
                factions={factions}
                onPick={(id) => update({ vf1: id || '-' }, true)}
              />
              <FactionPick
                label={`${isolate(playerName(v.opponent))} plays`}
                value={f2}
                factions={factions}
                onPick={(id) => update({ vf2: id || '-' }, true)}
              />
            </div>
            <dl class="stats" aria-label="Head to head at a glance">
              <div>
                <dt>Opponent</dt>
                <dd>
                  <PlayerLink player={v.opponent} />
                </dd>
              </div>
              <div>
                <dt title="Expected score (win 1, draw ½; the score share where the system scores games), 95 % interval">
                  Forecast for <bdi>{playerName(v.player)}</bdi>
                </dt>
                <dd>
                  <span data-testid="forecast">
                    {joint ? (
                      <JointForecast
                        body={{
                          system: filter.system,
                          player1: player.id,
                          faction1: f1,
                          player2: opponent,
                          faction2: f2,
                        }}
                      />
                    ) : (
                      rating
                    )}
                  </span>
                  <small class="forecast-model" data-testid="forecast-model">
                    {modelNote(joint, method)}
                    {joint && v.expectedScore !== null && ` (ratings alone: ${rating})`}
                  </small>
                  {v.expectedScore !== null && (
                    <CoinFlipWarning quality={meta.predictionQuality} filter={filter} />
                  )}
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

export function HeadToHead(props: Props) {
  const { params, update, filter, method, player } = props;
  const query = params.vsq ?? '';
  return (
    <section aria-labelledby="h2h-h">
      <h2 id="h2h-h">Head to head</h2>
      <PlayerPicker
        label="Find an opponent"
        query={query}
        onQuery={(q) => update({ vsq: q }, true)}
        onPick={(id) => update({ vs: id, vsq: '', vf1: undefined, vf2: undefined })}
        filter={filter}
        method={method}
        exclude={player.id}
      />
      {params.vs ? (
        <>
          <Forecast {...props} opponent={params.vs} />
          <button
            type="button"
            class="link"
            onClick={() => update({ vs: '', vf1: undefined, vf2: undefined })}
          >
            Choose another opponent
          </button>
        </>
      ) : (
        !query && <p class="note">Search a name or id to see the forecast and past games.</p>
      )}
    </section>
  );
}
