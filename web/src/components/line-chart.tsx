/** Win rate over time, one line per faction, drawn by uPlot; a table below says the same in words. */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Okabe–Ito colours: told apart with every common colour-vision deficiency. */
export const SERIES_COLOURS = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#999999',
];

export interface Line {
  label: string;
  values: Array<number | null>;
}

export function LineChart({ xs, lines, title }: { xs: number[]; lines: Line[]; title: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (el === null || xs.length === 0) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = dark ? '#d8dde6' : '#1d2430';
    const grid = dark ? '#3a4250' : '#e3e6ea';
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    const width = Math.max(280, Math.min(el.clientWidth || 640, 900));
    const chart = new uPlot(
      {
        title,
        width,
        height: 280,
        scales: {
          // One period alone would make a zero-width time axis: pad it by about a month each side.
          x:
            xs.length === 1
              ? { time: true, range: [xs[0] - 2_600_000, xs[0] + 2_600_000] }
              : { time: true },
          y: { range: [0.2, 0.8] },
        },
        axes: [
          { ...axis },
          {
            ...axis,
            values: (_u, ticks) => ticks.map((t) => `${Math.round(t * 100)} %`),
            size: 56,
          },
        ],
        series: [
          { label: 'Period start' },
          ...lines.map((l, i) => ({
            label: l.label,
            stroke: SERIES_COLOURS[i % SERIES_COLOURS.length],
            width: 2,
            points: { show: true, size: 6 },
            value: (_u: uPlot, v: number | null) =>
              v === null ? '–' : `${(v * 100).toFixed(1)} %`,
          })),
        ],
      },
      [xs, ...lines.map((l) => l.values)] as uPlot.AlignedData,
      el,
    );
    return () => chart.destroy();
  }, [xs, lines, title]);
  return <div ref={host} class="chart" aria-hidden="true" />;
}
