/**
 * Forecast: one game between two players and their factions from the joint model, and how well
 * four models' forecasts held up on the games of the filter (docs/ratings.md#forecast-accuracy).
 */
import { post } from '../api.ts';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Show, Warnings } from '../components/status.tsx';
import { num, pct } from '../format.ts';
import type { CommonFilter, ModelAccuracy } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

/** A part of the forecast on the logit scale, signed. */
const logit = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)}`;

const MODEL_NAMES: Record<string, string> = {
  coin: 'Coin flip',
  faction: 'Faction only',
  rating: 'Rating only (Glicko-2)',
  joint: 'Joint (skill, faction, matchup)',
};
const MODEL_COLOURS = ['#888', '#c07020', '#2060c0', '#208040'];

const ACCURACY_COLUMNS: Array<Column<ModelAccuracy>> = [
  { key: 'model', label: 'Model', sort: (r) => r.model, render: (r) => MODEL_NAMES[r.model] },
  {
    key: 'games',
    label: 'Games',
    numeric: true,
    sort: (r) => r.games,
    render: (r) => num(r.games),
  },
  {
    key: 'brier',
    label: 'Brier',
    numeric: true,
    title: 'Mean (forecast − outcome)²: lower is better',
    sort: (r) => r.brier,
    render: (r) => num(r.brier, 4),
  },
  {
    key: 'logLoss',
    label: 'Log loss',
    numeric: true,
    sort: (r) => r.logLoss,
    render: (r) => num(r.logLoss, 4),
  },
  {
    key: 'accuracy',
    label: 'Accuracy',
    numeric: true,
    title: 'Decided games whose winner had the forecast above 50 %',
    sort: (r) => r.accuracy,
    render: (r) => pct(r.accuracy),
  },
];

/** Mean outcome against mean forecast per bin, one line per model, the diagonal marked. */
function CalibrationChart({ models }: { models: ModelAccuracy[] }) {
  const size = 260;
  const at = (v: number) => 20 + v * (size - 30);
  const y = (v: number) => size - at(v);
  return (
    <figure class="calibration">
      <svg
        viewBox={`0 0 ${size} ${size}`}
        width="100%"
        style="max-width:320px"
        role="img"
        aria-label="Calibration: mean outcome against mean forecast per forecast bin"
      >
        <line x1={at(0)} y1={y(0)} x2={at(1)} y2={y(1)} stroke="#bbb" stroke-dasharray="4 3" />
        <line x1={at(0)} y1={y(0)} x2={at(1)} y2={y(0)} stroke="#666" />
        <line x1={at(0)} y1={y(0)} x2={at(0)} y2={y(1)} stroke="#666" />
        {[0, 0.5, 1].map((v) => (
          <text key={v} x={at(v)} y={size - 4} font-size="10" text-anchor="middle">
            {pct(v, 0)}
          </text>
        ))}
        {models.map((m, i) => {
          const bins = m.calibration.filter(
            (b) => b.meanForecast !== null && b.meanOutcome !== null,
          );
          const points = bins.map((b) => `${at(b.meanForecast!)},${y(b.meanOutcome!)}`).join(' ');
          return (
            <g key={m.model} stroke={MODEL_COLOURS[i]} fill={MODEL_COLOURS[i]}>
              <polyline points={points} fill="none" stroke-width="1.5" />
              {bins.map((b) => (
                <circle
                  key={b.from}
                  cx={at(b.meanForecast!)}
                  cy={y(b.meanOutcome!)}
                  r={b.games >= 100 ? 3 : 2}
                >
                  <title>{`${MODEL_NAMES[m.model]}: ${num(b.games)} games, forecast ${pct(b.meanForecast)}, outcome ${pct(b.meanOutcome)}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {models.map((m, i) => (
          <span key={m.model} style={`color:${MODEL_COLOURS[i]}`}>
            ● {MODEL_NAMES[m.model]}{' '}
          </span>
        ))}
        <br />
        Mean outcome (up) against mean forecast (across) in ten forecast bins; on the dashed line a
        model says what happens.
      </figcaption>
    </figure>
  );
}

/** The CSV of every forecast with the page's filter as query parameters. */
function csvHref(filter: CommonFilter): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (Array.isArray(value)) for (const v of value) query.append(key, String(v));
    else if (value !== undefined && value !== null) query.set(key, String(value));
  }
  return `/api/forecast-accuracy.csv?${query.toString()}`;
}

function Accuracy({ filter }: { filter: CommonFilter }) {
  const result = useApi(JSON.stringify(filter), (signal) =>
    post('/api/forecast-accuracy', filter, signal),
  );
  return (
    <section aria-labelledby="accuracy-h">
      <h2 id="accuracy-h">How well the forecasts held up</h2>
      <Show result={result} what="forecast accuracy">
        {({ data, meta }) => (
          <>
            <Warnings warnings={meta.warnings} />
            <p class="note">
              Each game forecast only from the games of earlier events ({num(data.refits)} refits),
              scored against {data.outcome === 'score-share' ? 'the score share' : 'the result'}.
            </p>
            <SortableTable
              caption="Forecast accuracy per model"
              columns={ACCURACY_COLUMNS}
              rows={data.models}
              rowKey={(r) => r.model}
              name="forecast-accuracy"
              testId="accuracy-table"
            />
            <CalibrationChart models={data.models} />
            <p>
              <a href={csvHref(filter)} download>
                Every forecast as CSV
              </a>{' '}
              (one row per game and model), to recompute every figure.
            </p>
          </>
        )}
      </Show>
    </section>
  );
}

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
              <label>
                Player id{' '}
                <input value={pv} onChange={(e) => update({ [pk]: e.currentTarget.value }, true)} />
              </label>
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
          <p class="note">Give two player ids (from their pages' links) to see the forecast.</p>
        )}
      </section>
      <Accuracy filter={filter} />
    </>
  );
}

type ForecastBody = {
  system?: string;
  player1: string;
  faction1: string;
  player2: string;
  faction2: string;
};

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
        </>
      )}
    </Show>
  );
}
