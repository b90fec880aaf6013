/**
 * Win rate over time, one line per faction, drawn by uPlot over a run of periods (quarters or
 * months, labelled as such, never as times of day), each line with its 95 % interval as a faint
 * band. The y axis is fitted to the points drawn; each line has a colour of its own. A period
 * still in progress, or with fewer games of the faction than the page's minimum, is drawn as a
 * hollow point reached by a dashed segment, so its smaller sample does not read as a full one.
 * The legend is HTML (it wraps on a phone); a table below the chart says the same in words.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { lineChartPng } from './chart-png.ts';
import { DownloadPng } from './download.tsx';

/**
 * Okabe–Ito colours, told apart with every common colour-vision deficiency, with Tol's wine and
 * indigo in place of its yellow and grey, which are too faint on a white page.
 */
export const SERIES_COLOURS = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#882255',
  '#332288',
];

export interface Line {
  /** Faction id: its colour follows from it (colourOf), not from the line's position. */
  id: string;
  label: string;
  /** One value per period (null: no games then). */
  values: Array<number | null>;
  /** The 95 % interval of each value (null: none). */
  low: Array<number | null>;
  high: Array<number | null>;
  /** Periods with fewer games than the minimum: hollow points, dashed segments. */
  thin: boolean[];
  colour: string;
  /** Dashed, when more factions are chosen than there are colours and another has this one. */
  dashed: boolean;
}

/** The y range drawn: every point inside, padded, on 5 pp steps, within 0–100 %. */
export function fitRange(values: Array<number | null>): [number, number] {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return [0.3, 0.7];
  const low = Math.min(...present, 0.5);
  const high = Math.max(...present, 0.5);
  const step = 0.05;
  return [
    Math.max(0, Math.floor((low - 0.02) / step) * step),
    Math.min(1, Math.ceil((high + 0.02) / step) * step),
  ];
}

/**
 * uPlot's series and data: each line three times, its full periods solid (thin and partial
 * periods left out, drawn by drawThin), the line into the partial period dashed, and its interval
 * as two invisible series with a band between them.
 */
function seriesOf(
  lines: Line[],
  count: number,
  partial: number,
  dark: boolean,
): { series: uPlot.Series[]; data: Array<Array<number | null>>; bands: uPlot.Band[] } {
  const xs = Array.from({ length: count }, (_, i) => i);
  const tail = (values: Array<number | null>) =>
    values.map((v, i) => {
      if (partial < 0) return null;
      if (i === partial) return v;
      // The last complete value before the partial period starts the dashed segment.
      const before = values.slice(0, partial).findLastIndex((x) => x !== null);
      return i === before ? v : null;
    });
  const series: uPlot.Series[] = [{ label: 'Period' }];
  const data: Array<Array<number | null>> = [xs];
  const bands: uPlot.Band[] = [];
  for (const l of lines) {
    series.push({
      label: l.label,
      stroke: l.colour,
      width: 2,
      dash: l.dashed ? [8, 4] : undefined,
      points: { show: true, size: 6, fill: l.colour },
    });
    data.push(l.values.map((v, i) => (i === partial || l.thin[i] ? null : v)));
    series.push({
      label: `${l.label} (in progress)`,
      stroke: l.colour,
      width: 2,
      dash: [3, 4],
      spanGaps: true,
      // A hollow point on the partial period only.
      points: { show: true, size: 8, fill: dark ? '#14181f' : '#ffffff', filter: [partial] },
    });
    data.push(tail(l.values));
    const at = series.length;
    for (const bound of ['low', 'high'] as const) {
      series.push({
        label: `${l.label} (${bound})`,
        stroke: 'transparent',
        points: { show: false },
      });
      data.push(l[bound].map((v, i) => (i === partial ? null : v)));
    }
    bands.push({ series: [at + 1, at], fill: `${l.colour}1f` });
  }
  return { series, data, bands };
}

/**
 * The thin periods of each line (below the minimum of games, not in progress): a dashed segment
 * to each neighbour that has a value, and a hollow point.
 */
function drawThin(u: uPlot, lines: Line[], partial: number, paper: string): void {
  const ctx = u.ctx;
  const px = devicePixelRatio;
  ctx.save();
  for (const l of lines) {
    const at = (i: number) => [u.valToPos(i, 'x', true), u.valToPos(l.values[i]!, 'y', true)];
    const shown = (i: number) =>
      i >= 0 && i < l.values.length && i !== partial && l.values[i] !== null;
    ctx.strokeStyle = l.colour;
    ctx.lineWidth = 2 * px;
    ctx.setLineDash([3 * px, 4 * px]);
    for (let i = 0; i + 1 < l.values.length; i++) {
      if (!shown(i) || !shown(i + 1) || (!l.thin[i] && !l.thin[i + 1])) continue;
      const [x0, y0] = at(i);
      const [x1, y1] = at(i + 1);
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.fillStyle = paper;
    for (let i = 0; i < l.values.length; i++) {
      if (!shown(i) || !l.thin[i]) continue;
      const [x, y] = at(i);
      ctx.beginPath();
      ctx.arc(x, y, 3.5 * px, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
  }
  ctx.restore();
}

/** Each line's colour and dash, and what the dashed end means when a period is in progress. */
function Legend({
  lines,
  partial,
  minGames,
}: {
  lines: Line[];
  partial: string | undefined;
  minGames: number;
}) {
  return (
    <ul class="chart-legend">
      {lines.map((l) => (
        <li key={l.id} data-faction={l.id} data-colour={l.colour}>
          <svg width="26" height="10" aria-hidden="true">
            <line
              x1="1"
              x2="25"
              y1="5"
              y2="5"
              stroke={l.colour}
              stroke-width="3"
              stroke-dasharray={l.dashed ? '8 4' : undefined}
            />
          </svg>
          {l.label}
        </li>
      ))}
      <li class="thin-note" data-testid="thin-note">
        <svg width="26" height="10" aria-hidden="true">
          <line x1="1" x2="19" y1="5" y2="5" stroke="currentColor" stroke-dasharray="3 4" />
          <circle cx="21" cy="5" r="3.5" fill="none" stroke="currentColor" />
        </svg>
        fewer than {minGames} games of the faction in that period
      </li>
      <li class="band-note">
        <svg width="26" height="10" aria-hidden="true">
          <rect x="1" y="0" width="24" height="10" fill="currentColor" opacity="0.15" />
        </svg>
        95 % interval
      </li>
      {partial !== undefined && (
        <li class="partial-note" data-testid="partial-note">
          <svg width="26" height="10" aria-hidden="true">
            <line x1="1" x2="25" y1="5" y2="5" stroke="currentColor" stroke-dasharray="3 4" />
          </svg>
          {partial} is still in progress: fewer games so far
        </li>
      )}
    </ul>
  );
}

export function LineChart({
  periods,
  labels,
  lines,
  partial,
  title,
  minGames,
}: {
  /** Period keys in order ("2025-Q2", "2025-04"), with no gap. */
  periods: string[];
  /** Axis label of each period. */
  labels: string[];
  lines: Line[];
  /** Index of the period still in progress, or -1. */
  partial: number;
  title: string;
  /** Fewer games than this in a period: a thin period. */
  minGames: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  // The axis holds every point and the intervals of the full periods (a thin period's interval
  // is wide: fitting it would flatten the lines; its band is cut at the edge).
  const all = lines.flatMap((l) => [
    ...l.values,
    ...l.low.filter((_, i) => !l.thin[i] && i !== partial),
    ...l.high.filter((_, i) => !l.thin[i] && i !== partial),
  ]);
  const [yMin, yMax] = fitRange(all);
  useEffect(() => {
    const el = host.current;
    if (el === null || periods.length === 0) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = dark ? '#d8dde6' : '#1d2430';
    const grid = dark ? '#3a4250' : '#e3e6ea';
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    const width = Math.max(280, Math.min(el.clientWidth || 640, 900));
    const { series, data, bands } = seriesOf(lines, periods.length, partial, dark);
    const paper = dark ? '#14181f' : '#ffffff';
    const chart = new uPlot(
      {
        title,
        width,
        height: 280,
        legend: { show: false },
        scales: {
          x: { time: false, range: [-0.3, Math.max(0.3, periods.length - 0.7)] },
          y: { range: [yMin, yMax] },
        },
        axes: [
          {
            ...axis,
            // One tick per period, fewer when they would crowd: whole steps only.
            incrs: [1, 2, 3, 4, 6, 12, 24],
            space: 56,
            values: (_u, ticks) => ticks.map((t) => labels[t] ?? ''),
          },
          {
            ...axis,
            values: (_u, ticks) => ticks.map((t) => `${Math.round(t * 100)} %`),
            size: 52,
          },
        ],
        series,
        bands,
        hooks: { draw: [(u) => drawThin(u, lines, partial, paper)] },
      },
      data as uPlot.AlignedData,
      el,
    );
    return () => chart.destroy();
  }, [periods.join(), labels.join(), lines, partial, title, yMin, yMax, minGames]);
  return (
    <figure class="trend">
      <div
        ref={host}
        class="chart"
        aria-hidden="true"
        data-y-min={String(yMin)}
        data-y-max={String(yMax)}
        data-x-labels={JSON.stringify(labels)}
      />
      <figcaption>
        <Legend
          lines={lines}
          partial={partial >= 0 ? labels[partial] : undefined}
          minGames={minGames}
        />
        <div class="chart-tools">
          <DownloadPng
            name="chart"
            draw={() => {
              const plot = host.current?.querySelector<HTMLCanvasElement>('canvas');
              return plot ? lineChartPng(plot, title, lines) : null;
            }}
          />
        </div>
      </figcaption>
    </figure>
  );
}
