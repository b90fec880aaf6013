/**
 * A faction's score distribution on its system's scale (docs/statistics.md#score-distribution):
 * one bar per whole score (T9A: 0 to 20), the share of the faction's sides in scope that scored
 * it, with the counts as a table beneath.
 */
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty } from '../components/status.tsx';
import { num, pct } from '../format.ts';
import type { FactionRow } from '../types.ts';

type Distribution = NonNullable<FactionRow['scoreDistribution']>;
interface Step {
  score: number;
  sides: number;
  share: number;
}

const STEP_COLUMNS: Array<Column<Step>> = [
  {
    key: 'score',
    label: 'Score',
    numeric: true,
    csv: [['score', (s) => s.score]],
    render: (s) => s.score,
  },
  {
    key: 'sides',
    label: 'Sides',
    numeric: true,
    csv: [['sides', (s) => s.sides]],
    render: (s) => num(s.sides),
  },
  {
    key: 'share',
    label: 'Share',
    numeric: true,
    csv: [['share', (s) => s.share]],
    render: (s) => pct(s.share),
  },
];

function Bars({ steps, mean }: { steps: Step[]; mean: number | null }) {
  const top = Math.max(...steps.map((s) => s.share), 0.01);
  const w = 22;
  const h = 120;
  const width = steps.length * w + 36;
  const y = (share: number) => 8 + h - (share / top) * h;
  return (
    <svg
      class="score-bars"
      viewBox={`0 0 ${width} ${h + 30}`}
      width="100%"
      style={`max-width:${Math.min(width * 1.5, 720)}px`}
      role="img"
      aria-label={`Share of sides per score, ${steps[0].score} to ${steps[steps.length - 1].score}`}
    >
      <text x="0" y="14" font-size="9" class="axis">
        {pct(top, 0)}
      </text>
      <line x1="34" x2={width} y1={h + 8} y2={h + 8} stroke="#888" />
      {steps.map((s, i) => (
        <g key={s.score}>
          <rect
            x={36 + i * w + 2}
            y={y(s.share)}
            width={w - 4}
            height={h + 8 - y(s.share)}
            class="bar"
          >
            <title>{`${s.score}: ${num(s.sides)} sides (${pct(s.share)})`}</title>
          </rect>
          <text x={36 + i * w + w / 2} y={h + 22} font-size="9" text-anchor="middle" class="axis">
            {s.score}
          </text>
        </g>
      ))}
      {mean !== null && (
        <line
          class="mean"
          x1={36 + (mean - steps[0].score + 0.5) * w}
          x2={36 + (mean - steps[0].score + 0.5) * w}
          y1="4"
          y2={h + 8}
        >
          <title>{`Average ${num(mean, 2)}`}</title>
        </line>
      )}
    </svg>
  );
}

/** The faction's scores, bar by bar, or why there are none. */
export function ScoreDistribution({ row }: { row: FactionRow }) {
  const d: Distribution | null | undefined = row.scoreDistribution;
  if (!d) return <Empty>This game system declares no whole-number score scale to count on.</Empty>;
  const total = d.counts.reduce((a, b) => a + b, 0);
  if (total === 0) return <Empty>No scored sides in scope.</Empty>;
  const steps = d.counts.map((sides, i) => ({ score: d.min + i, sides, share: sides / total }));
  return (
    <figure class="score-figure" data-testid="score-distribution">
      <Bars steps={steps} mean={row.avgScore} />
      <figcaption class="secondary">
        Share of the faction’s {num(total)} scored sides in scope that scored each score, {d.min} to{' '}
        {d.max} (every side counts, both sides of a mirror); the line is the average,{' '}
        {num(row.avgScore, 2)}.
        {d.offScale > 0 &&
          ` ${num(d.offScale)} sides scored off the scale's whole steps and are not drawn.`}
        {total < 30 && ' Fewer than 30 sides: the shape says little.'}
      </figcaption>
      <details class="as-table">
        <summary>The chart as a table</summary>
        <SortableTable
          caption="Sides per score"
          name="scores"
          columns={STEP_COLUMNS}
          rows={steps}
          rowKey={(s) => String(s.score)}
        />
      </details>
    </figure>
  );
}
