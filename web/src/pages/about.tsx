/** About the data: systems, events, games, dates, data version, and the demo notice. */
import { get } from '../api.ts';
import { FileStem } from '../components/download.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Show } from '../components/status.tsx';
import { creditOf } from '../credits.ts';
import { num } from '../format.ts';
import type { SystemOptions } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

const SYSTEM_COLUMNS: Array<Column<SystemOptions>> = [
  {
    key: 'system',
    label: 'System',
    csv: [
      ['id', (s) => s.id],
      ['system', (s) => s.name],
      ['demo', (s) => s.demo],
    ],
    render: (s) => (
      <>
        {s.name}
        {s.demo && <span class="badge">demo data</span>}
      </>
    ),
  },
  {
    key: 'events',
    label: 'Events',
    numeric: true,
    csv: [['events', (s) => s.events]],
    render: (s) => num(s.events),
  },
  {
    key: 'games',
    label: 'Games',
    numeric: true,
    csv: [['games', (s) => s.games]],
    render: (s) => num(s.games),
  },
  {
    key: 'factions',
    label: 'Factions',
    numeric: true,
    optional: true,
    csv: [['factions', (s) => s.factions.length]],
    render: (s) => s.factions.length,
  },
  { key: 'from', label: 'From', csv: [['from', (s) => s.from]], render: (s) => s.from ?? '–' },
  { key: 'to', label: 'To', csv: [['to', (s) => s.to]], render: (s) => s.to ?? '–' },
  {
    key: 'countries',
    label: 'Countries',
    optional: true,
    hideEmpty: true,
    cellClass: 'wrap',
    csv: [['countries', (s) => s.countries.map((c) => c.value).join(' ')]],
    render: (s) => s.countries.map((c) => c.value).join(', ') || '–',
  },
];

/**
 * The data's own dates, first game to last over every system: what a reader means by "how recent
 * is this", which the time the service read the store is not.
 */
function dataRange(systems: SystemOptions[]): string {
  const from = systems.map((s) => s.from).filter((d): d is string => d !== null);
  const to = systems.map((s) => s.to).filter((d): d is string => d !== null);
  if (from.length === 0 || to.length === 0) return 'no games';
  return `${from.reduce((a, b) => (a < b ? a : b))} to ${to.reduce((a, b) => (a > b ? a : b))}`;
}

export function AboutPage({ filters }: PageProps) {
  const health = useApi('health', (signal) => get('/api/health', signal));
  const { systems } = filters.data;
  return (
    <>
      {systems.some((s) => s.demo) && (
        <p class="demo-long" role="note">
          <strong>
            {systems
              .filter((s) => s.demo)
              .map((s) => s.name)
              .join(', ')}{' '}
            is generated demo data.
          </strong>{' '}
          Muster seeds an empty store with made-up tournaments so that every page has something to
          show. The label belongs to that system's data (an export keeps it); real results you
          import with <code>npx muster import</code> are shown without it.
        </p>
      )}
      <dl class="stats">
        <div>
          <dt>Data version</dt>
          <dd data-testid="data-version">{filters.meta.dataVersion}</dd>
        </div>
        <div>
          <dt>Games dated</dt>
          <dd data-testid="data-range">{dataRange(systems)}</dd>
        </div>
        <div>
          <dt>Read from the store</dt>
          <dd>{filters.meta.loadedAt.replace('T', ' ').slice(0, 16)} UTC</dd>
        </div>
        <Show result={health} what="service status">
          {(h) => (
            <>
              <div>
                <dt>Service</dt>
                <dd>{h.status}</dd>
              </div>
              <div>
                <dt>API version</dt>
                <dd>{h.version}</dd>
              </div>
            </>
          )}
        </Show>
      </dl>
      {/* Every system, whichever the bar has chosen: the file is named for none of them. */}
      <FileStem.Provider value="muster-about">
        <SortableTable
          caption="Game systems in the store (events with at least one game)"
          label="Game systems"
          name="systems"
          columns={SYSTEM_COLUMNS}
          rows={systems}
          rowKey={(s) => s.id}
        />
      </FileStem.Provider>
      <Sources systems={systems} />
    </>
  );
}

/** Where each system's data comes from, under what licence, and how the figures are made. */
function Sources({ systems }: { systems: SystemOptions[] }) {
  return (
    <>
      <h2>Sources</h2>
      <ul class="credits">
        {systems.map((s) => {
          const credit = creditOf(s);
          return (
            <li key={s.id} data-system={s.id}>
              <strong>{s.name}</strong>:{' '}
              {credit.href ? <a href={credit.href}>{credit.source}</a> : credit.source} (
              {credit.licence}), {credit.note}
            </li>
          );
        })}
      </ul>
      <h2>Methods</h2>
      <p>
        How every figure is computed: <a href="/docs/statistics">statistics</a> (win rates,
        intervals, shrinkage, before/after comparisons) and <a href="/docs/ratings">ratings</a>{' '}
        (Glicko-2, Elo, points). The "?" beside a column heading opens its definition.
      </p>
      <p>
        Every number on these pages comes from Muster's API, which is documented at{' '}
        <a href="/docs">/docs</a>. Win rates count a draw as half a win; intervals are 95 % Wilson
        intervals; rows with fewer than 30 games are muted.
      </p>
    </>
  );
}
