/**
 * Win rate over time, one line per faction, drawn by uPlot over a run of periods (quarters or
 * months, labelled as such, never as times of day). The y axis is fitted to the points drawn;
 * each line keeps its faction's colour whichever factions are chosen; a period still in progress
 * is drawn dashed with a hollow point, so its smaller sample does not read as a drop. The legend
 * is HTML (it wraps on a phone); a table below the chart says the same in words.
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
  colour: string;
  /** Dashed, when another chosen faction has the same colour. */
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
 * uPlot's series and data: each line twice, its complete periods solid and the line into the
 * partial period (and its point) dashed.
 */
function seriesOf(
  lines: Line[],
  count: number,
  partial: number,
  dark: boolean,
): { series: uPlot.Series[]; data: Array<Array<number | null>> } {
  const xs = Array.from({ length: count }, (_, i) => i);
  const solid = (values: Array<number | null>) => values.map((v, i) => (i === partial ? null : v));
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
  for (const l of lines) {
    series.push({
      label: l.label,
      stroke: l.colour,
      width: 2,
      dash: l.dashed ? [8, 4] : undefined,
      points: { show: true, size: 6, fill: l.colour },
    });
    data.push(solid(l.values));
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
  }
  return { series, data };
}

/** Each line's colour and dash, and what the dashed end means when a period is in progress. */
function Legend({ lines, partial }: { lines: Line[]; partial: string | undefined }) {
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
}: {
  /** Period keys in order ("2025-Q2", "2025-04"), with no gap. */
  periods: string[];
  /** Axis label of each period. */
  labels: string[];
  lines: Line[];
  /** Index of the period still in progress, or -1. */
  partial: number;
  title: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const all = lines.flatMap((l) => l.values);
  const [yMin, yMax] = fitRange(all);
  useEffect(() => {
    const el = host.current;
    if (el === null || periods.length === 0) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = dark ? '#d8dde6' : '#1d2430';
    const grid = dark ? '#3a4250' : '#e3e6ea';
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    const width = Math.max(280, Math.min(el.clientWidth || 640, 900));
    const { series, data } = seriesOf(lines, periods.length, partial, dark);
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
      },
      data as uPlot.AlignedData,
      el,
    );
    return () => chart.destroy();
  }, [periods.join(), labels.join(), lines, partial, title, yMin, yMax]);
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
        <Legend lines={lines} partial={partial >= 0 ? labels[partial] : undefined} />
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
