/**
 * A difference of win rates drawn with its 95 % interval around 0 (docs/statistics.md#item-with-without).
 * A difference whose interval spans 0 is muted: it may be noise alone.
 */
import { signed } from '../format.ts';

export interface DeltaInterval {
  low: number;
  high: number;
}

/** True when the interval is known and includes 0. */
export const spansZero = (interval: DeltaInterval | null): boolean =>
  interval !== null && interval.low <= 0 && interval.high >= 0;

export function DeltaBar({
  value,
  interval,
  limit = 0.3,
  shortfall,
}: {
  value: number | null;
  interval: DeltaInterval | null;
  /** Half the drawn range: ±30 pp by default; wider intervals are clipped with an arrow. */
  limit?: number;
  /**
   * Why a difference whose interval excludes 0 is muted all the same (too small a sample, or
   * not significant once corrected for the comparisons shown with it; docs/statistics.md#emphasis).
   */
  shortfall?: string | null;
}) {
  if (value === null) return <span>–</span>;
  const width = 110;
  const x = (v: number) => ((Math.min(limit, Math.max(-limit, v)) + limit) / (2 * limit)) * width;
  const spans = spansZero(interval);
  const muted = spans || (shortfall ?? null) !== null;
  const range = interval
    ? ` (95 % interval ${signed(interval.low)} to ${signed(interval.high)})`
    : '';
  const why = spans
    ? ': the interval includes 0, could be noise'
    : shortfall
      ? `: ${shortfall}`
      : '';
  const label = `${signed(value)}${range}${why}`;
  return (
    <span
      class={muted ? 'delta spans-zero' : 'delta'}
      data-spans-zero={spans ? 'true' : 'false'}
      data-muted={muted ? 'true' : 'false'}
      title={label}
    >
      <span class="delta-text">
        {signed(value)}
        {interval && (
          <small class="delta-range">
            {signed(interval.low, 0)} … {signed(interval.high, 0)}
          </small>
        )}
      </span>
      <svg width={width} height="14" role="img" aria-label={label} class="interval-svg">
        <title>{label}</title>
        <line x1={x(0)} x2={x(0)} y1="0" y2="14" class="mid" />
        {interval && <line x1={x(interval.low)} x2={x(interval.high)} y1="7" y2="7" class="bar" />}
        <circle cx={x(value)} cy="7" r="3.5" class="dot" />
      </svg>
    </span>
  );
}
