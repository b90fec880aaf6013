/**
 * About the forecasts (docs/ratings.md#forecast-accuracy): how well four models' forecasts held
 * up on the filter's games, fetched on every visit so it is always the current data's: each
 * model's Brier score beside the coin flip's, faction only's and rating only's, the calibration
 * chart, a plain sentence on whether the joint model beats rating only, and every forecast as CSV.
 */
import { post } from '../api.ts';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Show, Warnings } from '../components/status.tsx';
import { num, pct } from '../format.ts';
import type { CommonFilter, ModelAccuracy } from '../types.ts';
import { useApi } from '../use-api.ts';

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
  // Room for the outcome axis's labels on the left and the forecast axis's below.
  const left = 34;
  const right = 16;
  const top = 8;
  const bottom = 22;
  const at = (v: number) => left + v * (size - left - right);
  const y = (v: number) => top + (1 - v) * (size - top - bottom);
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
          <text key={`x${v}`} x={at(v)} y={size - 6} font-size="10" text-anchor="middle">
            {pct(v, 0)}
          </text>
        ))}
        {[0, 0.5, 1].map((v) => (
          <text key={`y${v}`} x={left - 4} y={y(v) + 3} font-size="10" text-anchor="end">
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

/** Brier's improvement on the coin flip's: 1 − brier / coin (the Brier skill score). */
function skillOverCoin(m: ModelAccuracy, coin: ModelAccuracy | undefined): number | null {
  if (m.brier === null || coin?.brier === null || coin === undefined || coin.brier === 0) {
    return null;
  }
  return 1 - m.brier / coin.brier;
}

/** Each model's Brier score as a bar of its improvement on the coin flip, coin at 0. */
function BrierChart({ models }: { models: ModelAccuracy[] }) {
  const coin = models.find((m) => m.model === 'coin');
  const skills = models.map((m) => skillOverCoin(m, coin));
  const top = Math.max(0.01, ...skills.map((s) => Math.abs(s ?? 0)));
  const width = 300;
  const zero = 170;
  const x = (v: number) => zero + (v / top) * (width - zero - 60);
  return (
    <figure class="brier-chart" data-testid="brier-chart">
      <svg
        viewBox={`0 0 ${width} ${models.length * 22 + 6}`}
        width="100%"
        style="max-width:420px"
        role="img"
        aria-label="Each model's Brier score and its improvement on the coin flip"
      >
        <line x1={zero} x2={zero} y1="0" y2={models.length * 22 + 6} stroke="#888" />
        {models.map((m, i) => {
          const s = skills[i] ?? 0;
          const y = 4 + i * 22;
          return (
            <g key={m.model}>
              <text x="0" y={y + 13} font-size="11">
                {MODEL_NAMES[m.model].replace(/ \(.*\)$/, '')}
              </text>
              <rect
                x={Math.min(zero, x(s))}
                y={y + 3}
                width={Math.abs(x(s) - zero)}
                height="12"
                fill={MODEL_COLOURS[i]}
              />
              <text x={Math.max(zero, x(s)) + 4} y={y + 13} font-size="10">
                {num(m.brier, 4)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        Brier score of each model (lower is better); the bar is how much lower than the coin flip's
        it is (the Brier skill score), to the right when better, to the left when worse; the coin
        flip has none.
      </figcaption>
    </figure>
  );
}

/** A difference of Brier scores in words, to four places. */
const brierGap = (a: number, b: number) => `${num(Math.abs(a - b), 4)}`;

/** What the figures say of the joint model against rating only and faction only, plainly. */
export function verdict(models: ModelAccuracy[]): string[] {
  const by = new Map(models.map((m) => [m.model, m]));
  const joint = by.get('joint');
  const rating = by.get('rating');
  const faction = by.get('faction');
  if (joint?.brier == null || rating?.brier == null || joint.games === 0) {
    return ['Too few games in scope to compare the models.'];
  }
  const lines: string[] = [];
  const share = (a: number, b: number) => pct(Math.abs(a - b) / b, 1);
  const noBetterThanRating = joint.brier >= rating.brier;
  if (noBetterThanRating) {
    lines.push(
      `On these ${num(joint.games)} games the joint model is no better than rating only: its Brier score is ${num(joint.brier, 4)} against ${num(rating.brier, 4)}, ${brierGap(joint.brier, rating.brier)} worse (${share(joint.brier, rating.brier)}). Knowing the armies added nothing the players' ratings did not already say.`,
    );
  } else {
    const small = (rating.brier - joint.brier) / rating.brier < 0.05 ? ' A small gain.' : '';
    lines.push(
      `On these ${num(joint.games)} games the joint model beats rating only: Brier ${num(joint.brier, 4)} against ${num(rating.brier, 4)}, ${brierGap(joint.brier, rating.brier)} lower (${share(joint.brier, rating.brier)}).${small}`,
    );
  }
  if (faction?.brier != null && joint.brier >= faction.brier) {
    lines.push(
      `It is no better than faction only${noBetterThanRating ? ' either' : ''} (${num(faction.brier, 4)}).`,
    );
  }
  const coin = by.get('coin');
  if (coin?.brier != null && models.every((m) => m.brier === null || m.brier >= coin.brier!)) {
    lines.push(
      `Here no model beats the coin flip (${num(coin.brier, 4)}): too few earlier games to learn from, or too few games to tell.`,
    );
  }
  // Calibration is judged on bins of 100 games or more only; with none, there is nothing to say.
  const judged = joint.calibration.filter(
    (b) => b.games >= 100 && b.meanForecast !== null && b.meanOutcome !== null,
  );
  const off = judged.filter((b) => Math.abs(b.meanForecast! - b.meanOutcome!) > 0.05);
  if (judged.length === 0) {
    lines.push('No forecast bin has 100 games or more: too few to judge its calibration.');
  } else if (off.length === 0) {
    lines.push(
      `Its calibration is within 5 points in ${judged.length === 1 ? 'the one bin' : `each of the ${judged.length} bins`} of 100 games or more.`,
    );
  } else {
    lines.push(
      `Its calibration is off by more than 5 points in ${off.length} of the ${judged.length} ${judged.length === 1 ? 'bin' : 'bins'} of 100 games or more (forecasts from ${off.map((b) => pct(b.from, 0)).join(', ')}).`,
    );
  }
  return lines;
}

/** The "About the forecasts" section: the accuracy report of the filter's games. */
export function AboutForecasts({ filter }: { filter: CommonFilter }) {
  const result = useApi(JSON.stringify(filter), (signal) =>
    post('/api/forecast-accuracy', filter, signal),
  );
  return (
    <section aria-labelledby="about-forecasts-h">
      <h2 id="about-forecasts-h">About the forecasts</h2>
      <Show result={result} what="forecast accuracy">
        {({ data, meta }) => (
          <>
            <Warnings warnings={meta.warnings} />
            <p class="note">
              Every game in scope was forecast by four models using only the games of events that
              started earlier ({num(data.refits)} refits), and each forecast was scored against{' '}
              {data.outcome === 'score-share'
                ? "the game's score share (a 13–7 is 0.65, not a win), so even a coin flip's Brier score is well under 0.25"
                : 'the result (win 1, draw ½, loss 0)'}
              . The baselines are the coin flip (always ½), faction only (the armies, not the
              players) and rating only (the players' Glicko-2 ratings); the joint model adds the
              armies and their matchup to the ratings.
            </p>
            <div class="verdict" data-testid="verdict">
              {verdict(data.models).map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
            <BrierChart models={data.models} />
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
