/** The games, win-rate (with its interval bar) and average-score columns every faction table shows. */
import type { Interval } from '../types.ts';
import { num } from '../format.ts';
import { IntervalBar } from './interval-bar.tsx';
import type { Column } from './sortable-table.tsx';

interface RateRow {
  games: number;
  winRate: number | null;
  winRateInterval: Interval | null;
  avgScore: number | null;
}

/**
 * A win rate drawn with its 95 % interval, the interval's ends in the download
 * (docs/statistics.md#wilson-interval); not sortable unless the caller adds `sort`.
 */
export function winRateColumn<R extends Pick<RateRow, 'winRate' | 'winRateInterval'>>(
  label: string,
): Column<R> {
  return {
    key: 'winRate',
    label,
    numeric: true,
    define: 'winRate',
    csv: [
      ['winRate', (r) => r.winRate],
      ['winRateLow', (r) => r.winRateInterval?.low ?? null],
      ['winRateHigh', (r) => r.winRateInterval?.high ?? null],
    ],
    render: (r) => (
      <IntervalBar
        value={r.winRate}
        low={r.winRateInterval?.low ?? null}
        high={r.winRateInterval?.high ?? null}
      />
    ),
  };
}

/** Games, win rate with its 95 % interval, and average score, in that order (docs/statistics.md#win-rate). */
export function rateColumns<R extends RateRow>(): Array<Column<R>> {
  return [
    {
      key: 'games',
      label: 'Games',
      numeric: true,
      define: 'games',
      sort: (r) => r.games,
      render: (r) => num(r.games),
    },
    { ...winRateColumn<R>('Win rate (95 % interval)'), sort: (r) => r.winRate },
    {
      key: 'avgScore',
      label: 'Avg score',
      numeric: true,
      define: 'avgScore',
      sort: (r) => r.avgScore,
      optional: true,
      render: (r) => num(r.avgScore, 2),
    },
  ];
}
