/** About the data: systems, events, games, dates, data version, and the demo notice. */
import { get } from '../api.ts';
import { FileStem, TableCsv } from '../components/download.tsx';
import { Show } from '../components/status.tsx';
import { creditOf } from '../credits.ts';
import { num } from '../format.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

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
          <dt>Loaded</dt>
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
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Game systems">
        <table>
          <caption>Game systems in the store (events with at least one game)</caption>
          <thead>
            <tr>
              <th scope="col">System</th>
              <th scope="col" class="num">
                Events
              </th>
              <th scope="col" class="num">
                Games
              </th>
              <th scope="col" class="num opt">
                Factions
              </th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col" class="opt">
                Countries
              </th>
            </tr>
          </thead>
          <tbody>
            {systems.map((s) => (
              <tr key={s.id}>
                <th scope="row">
                  {s.name}
                  {s.demo && <span class="badge">demo data</span>}
                </th>
                <td class="num">{num(s.events)}</td>
                <td class="num">{num(s.games)}</td>
                <td class="num opt">{s.factions.length}</td>
                <td>{s.from ?? '–'}</td>
                <td>{s.to ?? '–'}</td>
                <td class="opt wrap">{s.countries.map((c) => c.value).join(', ') || '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* Every system, whichever the bar has chosen: the file is named for none of them. */}
      <FileStem.Provider value="muster-about">
        <TableCsv
          name="systems"
          header={[
            'id',
            'system',
            'demo',
            'events',
            'games',
            'factions',
            'from',
            'to',
            'countries',
          ]}
          rows={() =>
            systems.map((s) => [
              s.id,
              s.name,
              s.demo,
              s.events,
              s.games,
              s.factions.length,
              s.from,
              s.to,
              s.countries.map((c) => c.value).join(' '),
            ])
          }
        />
      </FileStem.Provider>
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
