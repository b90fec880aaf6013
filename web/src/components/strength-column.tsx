/**
 * The "after pilot skill" column (docs/statistics.md#faction-strength): a faction's expected
 * score against the field once its pilots' ratings are taken out, drawn with its 95 % interval
 * and greyed when that interval spans 50 %, the field's average; and the badge a row gets when
 * one player plays most of its games.
 */
import { pct } from '../format.ts';
import type { FactionStrengthRow } from '../types.ts';
import { IntervalBar } from './interval-bar.tsx';
import type { Column } from './sortable-table.tsx';

type Estimate = NonNullable<FactionStrengthRow['strength']>;

/** Whether an estimate's interval includes the field's average, ½. */
export const spansField = (s: Estimate | null | undefined): boolean =>
  s !== null && s !== undefined && s.low <= 0.5 && s.high >= 0.5;

/** An estimate drawn as a dot and its interval, greyed when the interval spans ½. */
export function StrengthCell({ strength }: { strength: Estimate | null | undefined }) {
  return (
    <span class={spansField(strength) ? 'spans' : undefined} data-testid="strength-cell">
      <IntervalBar
        value={strength?.value ?? null}
        low={strength?.low ?? null}
        high={strength?.high ?? null}
      />
    </span>
  );
}

/**
 * The column for rows of any table of factions: `strengthOf` finds a row's estimate, undefined
 * while faction-strength is still loading (shown as "…") or when it has none.
 */
export function strengthColumn<R>(
  strengthOf: (row: R) => Estimate | null | undefined,
  loading = false,
): Column<R> {
  return {
    key: 'strength',
    label: 'After pilot skill',
    numeric: true,
    define: 'strength',
    csv: [
      ['strength', (r) => strengthOf(r)?.value ?? null],
      ['strengthLow', (r) => strengthOf(r)?.low ?? null],
      ['strengthHigh', (r) => strengthOf(r)?.high ?? null],
    ],
    sort: (r) => strengthOf(r)?.value ?? null,
    render: (r) =>
      loading && strengthOf(r) === undefined ? (
        <span class="secondary" title="Fitting the model…">
          …
        </span>
      ) : (
        <StrengthCell strength={strengthOf(r)} />
      ),
  };
}

/** Share of its games above which one player's results are most of a faction's figures. */
export const DOMINANT_SHARE = 0.25;

/** "one player: 40 %" beside a faction whose most frequent player plays over a quarter of it. */
export function OnePlayerBadge({ share }: { share: number | null | undefined }) {
  if (share === null || share === undefined || share <= DOMINANT_SHARE) return null;
  return (
    <span
      class="badge one-player"
      data-testid="one-player"
      title="One player plays this share of its games: its figures are largely that player's"
    >
      one player: {pct(share, 0)}
    </span>
  );
}
