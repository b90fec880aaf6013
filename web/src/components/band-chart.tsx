/**
 * One value over time with its uncertainty as a shaded band (a player's rating ± 2·RD, a
 * faction's win rate and its Wilson interval), drawn by uPlot. The x axis is either calendar
 * days (a player's events, spaced by date) or a run of periods (quarters, months). The chart is
 * hidden from screen readers: each page shows the same numbers in a table.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { SERIES_COLOURS } from './line-chart.tsx';

export interface BandPoint {
  /** Days since 1970-01-01 (dates) or the period's index (periods). */
  x: number;
  value: number | null;
  low: number | null;
  high: number | null;
}

const DAY = 86_400;

/** "2025-04-12" -> days since 1970-01-01. */
export const dayOf = (date: string): number =>
  Math.round(Date.parse(`${date}T00:00:00Z`) / 1e3 / DAY);

/** The y range: every point and band inside, padded by a twentieth. */
function yRange(points: BandPoint[]): [number, number] {
  const ys = points.flatMap((p) => [p.value, p.low, p.high]).filter((v): v is number => v !== null);
  if (ys.length === 0) return [0, 1];
  const low = Math.min(...ys);
  const high = Math.max(...ys);
  const pad = Math.max((high - low) / 20, 1e-3);
  return [low - pad, high + pad];
}

/**
 * A whisker from low to high at every point, so the interval of a point between gaps (or of a
 * single point, where a band has no width) is seen too.
 */
function whiskers(u: uPlot, points: BandPoint[], unit: number, colour: string): void {
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = `${colour}88`;
  ctx.lineWidth = 2 * devicePixelRatio;
  for (const p of points) {
    if (p.low === null || p.high === null) continue;
    const x = u.valToPos(p.x * unit, 'x', true);
    ctx.beginPath();
    ctx.moveTo(x, u.valToPos(p.low, 'y', true));
    ctx.lineTo(x, u.valToPos(p.high, 'y', true));
    ctx.stroke();
  }
  ctx.restore();
}

export function BandChart({
  points,
  title,
  valueLabel,
  bandLabel,
  format,
  labels,
  clamp,
}: {
  points: BandPoint[];
  title: string;
  valueLabel: string;
  bandLabel: string;
  /** How a y value is written on the axis. */
  format: (v: number) => string;
  /** Period axis: the label of each index; absent: x is a day number. */
  labels?: string[];
  /** Keep the y range inside these bounds (e.g. 0–1 for a rate). */
  clamp?: [number, number];
}) {
  const host = useRef<HTMLDivElement>(null);
  const colour = SERIES_COLOURS[0];
  useEffect(() => {
    const el = host.current;
    if (el === null || points.length === 0) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = dark ? '#d8dde6' : '#1d2430';
    const grid = dark ? '#3a4250' : '#e3e6ea';
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    const width = Math.max(280, Math.min(el.clientWidth || 640, 900));
    let [yMin, yMax] = yRange(points);
    if (clamp) [yMin, yMax] = [Math.max(clamp[0], yMin), Math.min(clamp[1], yMax)];
    const xs = points.map((p) => (labels ? p.x : p.x * DAY));
    // Periods: half a step beyond the ends. Dates: a twentieth of the span (a month at least),
    // so one event is not drawn at the edge of a century.
    const pad = Math.max(30 * DAY, (xs[xs.length - 1] - xs[0]) / 20);
    const span: [number, number] = labels
      ? [-0.3, Math.max(0.3, points.length - 0.7)]
      : [xs[0] - pad, xs[xs.length - 1] + pad];
    const dateAxis = (ticks: number[]) =>
      ticks.map((t) => new Date(t * 1e3).toISOString().slice(0, 10));
    const chart = new uPlot(
      {
        title,
        width,
        height: 260,
        legend: { show: false },
        scales: {
          x: { time: false, range: span },
          y: { range: [yMin, yMax] },
        },
        axes: [
          {
            ...axis,
            space: labels ? 56 : 90,
            ...(labels ? { incrs: [1, 2, 3, 4, 6, 12, 24] } : {}),
            values: (_u, ticks) => (labels ? ticks.map((t) => labels[t] ?? '') : dateAxis(ticks)),
          },
          { ...axis, values: (_u, ticks) => ticks.map(format), size: 56 },
        ],
        series: [
          { label: 'x' },
          {
            label: valueLabel,
            stroke: colour,
            width: 2,
            points: { show: true, size: 6, fill: colour },
          },
          { label: `${bandLabel} (low)`, stroke: 'transparent', points: { show: false } },
          { label: `${bandLabel} (high)`, stroke: 'transparent', points: { show: false } },
        ],
        bands: [{ series: [3, 2], fill: `${colour}33` }],
        hooks: { draw: [(u) => whiskers(u, points, labels ? 1 : DAY, colour)] },
      },
      [
        xs,
        points.map((p) => p.value),
        points.map((p) => p.low),
        points.map((p) => p.high),
      ] as uPlot.AlignedData,
      el,
    );
    return () => chart.destroy();
  }, [points, title, labels?.join()]);
  return (
    <figure class="trend">
      <div ref={host} class="chart" aria-hidden="true" />
      <figcaption>
        <ul class="chart-legend">
          <li>
            <svg width="26" height="10" aria-hidden="true">
              <line x1="1" x2="25" y1="5" y2="5" stroke={colour} stroke-width="3" />
            </svg>
            {valueLabel}
          </li>
          <li>
            <svg width="26" height="10" aria-hidden="true">
              <rect x="1" y="0" width="24" height="10" fill={`${colour}33`} />
            </svg>
            {bandLabel}
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
