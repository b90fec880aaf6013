/**
 * The "after pilot skill" column (docs/statistics.md#faction-strength): a faction's expected
 * score against the field once its pilots' ratings are taken out, drawn with its 95 % interval
 * and greyed when that interval spans 50 %, the field's average; and the badge a row gets when
 * one player plays most of its games.
 */
import { isolate, pct } from '../format.ts';
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
        // Strengths after skill sit near ½ (on T9A 0.47 to 0.53): a narrower scale shows them.
        min={0.35}
        max={0.65}
        width={80}
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

/**
 * One line for every faction a single player dominates, most dominated first, in place of one
 * warning each (a small slice has a dozen).
 */
export function onePlayerWarning(rows: readonly FactionStrengthRow[]): string | null {
  const dominated = rows
    .filter((r) => r.topPlayerShare !== null && r.topPlayerShare > DOMINANT_SHARE)
    .sort((a, b) => (b.topPlayerShare ?? 0) - (a.topPlayerShare ?? 0));
  if (dominated.length === 0) return null;
  const named = dominated.map((r) => `${isolate(r.faction.name)} (${pct(r.topPlayerShare, 0)})`);
  return dominated.length === 1
    ? `one player plays ${pct(dominated[0].topPlayerShare, 0)} of ${isolate(dominated[0].faction.name)}'s games: its figures are largely that player's`
    : `one player plays over a quarter of the games of ${dominated.length} factions, ${named.join(', ')}: their figures are largely that player's`;
}

/** Share of its games above which one player's results are most of a faction's figures. */
export const DOMINANT_SHARE = 0.25;

/** "1 player 40 %" beside a faction whose most frequent player plays over a quarter of it. */
export function OnePlayerBadge({ share }: { share: number | null | undefined }) {
  if (share === null || share === undefined || share <= DOMINANT_SHARE) return null;
  return (
    <span
      class="badge one-player"
      data-testid="one-player"
      title="One player plays this share of its games: its figures are largely that player's"
    >
      1 player {pct(share, 0)}
    </span>
  );
}
