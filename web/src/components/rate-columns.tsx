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
    {
      key: 'winRate',
      label: 'Win rate (95 % interval)',
      numeric: true,
      define: 'winRate',
      sort: (r) => r.winRate,
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
    },
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
