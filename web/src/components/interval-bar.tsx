/** A win rate drawn as a dot with its interval as an error bar, on a 0–100 % scale with 50 % marked. */
import { pct } from '../format.ts';

export function IntervalBar({
  value,
  low,
  high,
  min = 0.25,
  max = 0.75,
  width = 120,
}: {
  value: number | null;
  low: number | null;
  high: number | null;
  min?: number;
  max?: number;
  /** Pixels of the bar. */
  width?: number;
}) {
  if (value === null) return <span>–</span>;
  const x = (v: number) => ((Math.min(max, Math.max(min, v)) - min) / (max - min)) * width;
  const label = `${pct(value)} (95 % interval ${pct(low)} to ${pct(high)})`;
  return (
    <span class="interval">
      <span class="interval-text">
        {pct(value)}
        {low !== null && high !== null && (
          <small class="interval-range">
            {Math.round(low * 100)}–{Math.round(high * 100)} %
          </small>
        )}
      </span>
      <svg width={width} height="14" role="img" aria-label={label} class="interval-svg">
        <title>{label}</title>
        <line x1={x(0.5)} x2={x(0.5)} y1="0" y2="14" class="mid" />
        {low !== null && high !== null && (
          <line x1={x(low)} x2={x(high)} y1="7" y2="7" class="bar" />
        )}
        <circle cx={x(value)} cy="7" r="3.5" class="dot" />
      </svg>
    </span>
  );
}
