/**
 * Over-representation (docs/statistics.md#over-representation): a faction's share of top-10%
 * finishes, X-0 runs and event wins over its share of entries, drawn on a log scale around 1
 * with its 95 % interval; muted when the interval includes 1 (it may be noise alone).
 */
import type { FactionRow } from '../types.ts';
import { num, pct } from '../format.ts';
import { FactionLink } from './entity-link.tsx';
import { SortableTable } from './sortable-table.tsx';
import type { Column } from './sortable-table.tsx';

type Over = FactionRow['overRepresentation'];
type OverRatio = Over['topTen'];

const MIN = 0.25;
const MAX = 4;
const x2 = (v: number) => `×${num(v, v < 10 ? 2 : 1)}`;

/** True when the interval is known and includes 1. */
const spansOne = (r: OverRatio): boolean =>
  r.interval !== null && r.interval.low <= 1 && r.interval.high >= 1;

/** One ratio drawn as a dot with its interval, ×¼ to ×4 on a log scale, 1 marked. */
export function RatioBar({ ratio, testId }: { ratio: OverRatio; testId?: string }) {
  if (ratio.ratio === null) {
    return (
      <span title={ratio.reason ?? undefined} data-testid={testId}>
        –
      </span>
    );
  }
  const width = 110;
  const x = (v: number) =>
    ((Math.log(Math.min(MAX, Math.max(MIN, v))) - Math.log(MIN)) / Math.log(MAX / MIN)) * width;
  const i = ratio.interval;
  const muted = spansOne(ratio);
  const label = `${x2(ratio.ratio)} its share of entries (${ratio.count} of ${ratio.fieldCount}${
    i ? `; 95 % interval ${x2(i.low)} to ${x2(i.high)}` : ''
  })${muted ? ': the interval includes 1, could be noise' : ''}`;
  return (
    <span
      class={muted ? 'delta spans-zero' : 'delta'}
      data-spans-one={muted ? 'true' : 'false'}
      data-testid={testId}
      title={label}
    >
      <span class="delta-text">
        {x2(ratio.ratio)}
        {i && (
          <small class="delta-range">
            {num(i.low, 2)} … {num(i.high, 2)}
          </small>
        )}
      </span>
      <svg width={width} height="14" role="img" aria-label={label} class="interval-svg">
        <title>{label}</title>
        <line x1={x(1)} x2={x(1)} y1="0" y2="14" class="mid" />
        {i && <line x1={x(i.low)} x2={x(i.high)} y1="7" y2="7" class="bar" />}
        <circle cx={x(ratio.ratio)} cy="7" r="3.5" class="dot" />
      </svg>
    </span>
  );
}

const ratioColumn = (
  key: 'topTen' | 'undefeated' | 'eventWins',
  label: string,
  optional = false,
): Column<FactionRow> => ({
  key,
  label,
  numeric: true,
  optional,
  title: `Share of ${label.toLowerCase()} over share of entries, with its 95 % interval`,
  sort: (r) => r.overRepresentation[key].ratio,
  render: (r) => <RatioBar ratio={r.overRepresentation[key]} />,
  csv: [
    [`${key} ratio`, (r) => r.overRepresentation[key].ratio],
    [`${key} low`, (r) => r.overRepresentation[key].interval?.low ?? null],
    [`${key} high`, (r) => r.overRepresentation[key].interval?.high ?? null],
  ],
});

const COLUMNS: Array<Column<FactionRow>> = [
  {
    key: 'faction',
    label: 'Faction',
    sort: (r) => r.faction.name,
    render: (r) => <FactionLink faction={r.faction} />,
  },
  {
    key: 'entryShare',
    label: 'Share of entries',
    numeric: true,
    optional: true,
    sort: (r) => r.overRepresentation.entryShare,
    render: (r) => pct(r.overRepresentation.entryShare),
  },
  ratioColumn('topTen', 'Top 10 %'),
  ratioColumn('undefeated', 'X-0 runs', true),
  ratioColumn('eventWins', 'Event wins', true),
];

const caption = (events: number) =>
  `Each faction's share of top-10 % finishes, X-0 runs and event wins over its share of entries, over the ${num(events)} events with published or rule-derived placings; ×1 = as its share of entries predicts. Muted: the 95 % interval includes 1.`;

/** The Meta page's over-representation table, most over-represented in top 10 % first. */
export function OverRepresentationSection({ rows }: { rows: FactionRow[] }) {
  const events = rows[0]?.overRepresentation.events ?? 0;
  return (
    <section aria-labelledby="over-h" data-testid="over-representation">
      <h2 id="over-h">Over-representation</h2>
      {events === 0 ? (
        <p>No event in scope has published or rule-derived placings, so nothing to compare.</p>
      ) : (
        <SortableTable
          caption={caption(events)}
          columns={COLUMNS}
          rows={[...rows].sort(
            (a, b) =>
              (b.overRepresentation.topTen.ratio ?? -1) - (a.overRepresentation.topTen.ratio ?? -1),
          )}
          rowKey={(r) => r.faction.id}
          muted={(r) => r.lowSample}
        />
      )}
    </section>
  );
}

/** The faction page's three ratios, as a definition list. */
export function FactionOverRepresentation({ row }: { row: FactionRow }) {
  const o = row.overRepresentation;
  if (o.events === 0) {
    return <p>No event in scope has published or rule-derived placings.</p>;
  }
  const items: Array<[string, OverRatio, string]> = [
    ['Top 10 % finishes', o.topTen, 'over-top'],
    ['X-0 runs', o.undefeated, 'over-undefeated'],
    ['Event wins', o.eventWins, 'over-wins'],
  ];
  return (
    <>
      <p>
        Over the {num(o.events)} events with published or rule-derived placings,{' '}
        <bdi>{row.faction.name}</bdi> has {num(o.entries)} of {num(o.fieldEntries)} entries (
        {pct(o.entryShare)}). Against that share (×1 = as predicted; muted when the 95 % interval
        includes 1):
      </p>
      <dl class="stats" aria-label="Over-representation">
        {items.map(([label, ratio, id]) => (
          <div key={id}>
            <dt>{label}</dt>
            <dd>
              <RatioBar ratio={ratio} testId={id} />
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
