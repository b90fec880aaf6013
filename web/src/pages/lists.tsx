/** Lists: what armies take (items and units), how often, and whether it pays off. */
import { post } from '../api.ts';
import { FactionLink } from '../components/entity-link.tsx';
import { Define } from '../components/define.tsx';
import { DeltaBar } from '../components/delta-bar.tsx';
import { DownloadCsv } from '../components/download.tsx';
import { IntervalBar } from '../components/interval-bar.tsx';
import { Pager } from '../components/pager.tsx';
import { SearchBox } from '../components/search-box.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import type { CsvValue } from '../csv.ts';
import { num, pct, signed } from '../format.ts';
import type { ItemRow } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

const SORTS = [
  ['lists', 'lists taking it'],
  ['share', 'share of lists'],
  ['games', 'games'],
  ['winRate', 'win rate'],
  ['evidence', 'evidence (clear effects first)'],
  ['delta', 'delta (with − without)'],
  ['name', 'name'],
] as const;

const PAGE_SIZE = 25;

/** The items table as CSV: the page shown, rates as fractions, each interval as two columns. */
const ITEM_CSV: ReadonlyArray<readonly [string, (r: ItemRow) => CsvValue]> = [
  ['item', (r) => r.item.name],
  ['category', (r) => r.item.category],
  ['lists', (r) => r.lists],
  ['share', (r) => r.share],
  ['games', (r) => r.games],
  ['winRate', (r) => r.winRate],
  ['winRateLow', (r) => r.winRateInterval?.low ?? null],
  ['winRateHigh', (r) => r.winRateInterval?.high ?? null],
  ['winRateWithout', (r) => r.winRateWithout],
  ['delta', (r) => r.delta],
  ['deltaLow', (r) => r.deltaInterval?.low ?? null],
  ['deltaHigh', (r) => r.deltaInterval?.high ?? null],
  ['skillAdjustedDelta', (r) => r.skillAdjustedDelta],
];

export function ListsPage({ params, update, filter, system }: PageProps) {
  const faction = params.faction ?? '';
  const sort = SORTS.find(([s]) => s === params.sort)?.[0] ?? 'lists';
  const page = Math.max(1, Number(params.page) || 1);
  const body = {
    ...filter,
    ...(faction ? { factions: [faction] } : {}),
    ...(params.q ? { search: params.q } : {}),
    sort,
    page,
    pageSize: PAGE_SIZE,
  };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/item-use-stats', body, signal),
  );
  const chosenFaction = system?.factions.find((f) => f.id === faction);
  return (
    <>
      <div class="controls">
        <label>
          Faction
          <select
            value={faction}
            onChange={(e) =>
              update({ faction: (e.currentTarget as HTMLSelectElement).value, page: '' })
            }
          >
            <option value="">every faction</option>
            {system?.factions.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        {chosenFaction && (
          <span class="open-page">
            <FactionLink faction={chosenFaction} />
            ’s page
          </span>
        )}
        <SearchBox
          label="Search items"
          value={params.q ?? ''}
          onSearch={(q) => update({ q, page: '' })}
        />
        <label>
          Sort by
          <select
            value={sort}
            onChange={(e) =>
              update({ sort: (e.currentTarget as HTMLSelectElement).value, page: '' })
            }
          >
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Show result={result} what="list statistics">
        {({ data, meta }) => (
          <>
            <Warnings warnings={meta.warnings} />
            {data.items.length === 0 ? (
              <Empty>No items match{params.q ? ` "${params.q}"` : ''} with these filters.</Empty>
            ) : (
              <>
                <p class="note">
                  {num(data.lists)} lists in scope. "Without" is the win rate of the same faction's
                  lists that do not take the item; the delta is drawn with its 95 % interval and is
                  greyed when that interval includes 0 (it may be noise). "Skill-adjusted" takes out
                  how much better than expected the players taking the item are.
                </p>
                <div class="table-wrap" tabIndex={0} role="region" aria-label="Items">
                  <table>
                    <caption class="sr-only">
                      Items and units, sorted by {SORTS.find(([s]) => s === sort)?.[1]}
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Item</th>
                        <th scope="col" class="num opt">
                          Lists
                        </th>
                        <th scope="col" class="num opt">
                          Share
                        </th>
                        <th scope="col" class="num opt">
                          Games
                        </th>
                        <th scope="col" class="num">
                          Win rate with <Define k="winRate" />
                        </th>
                        <th scope="col" class="num">
                          Without
                        </th>
                        <th scope="col" class="num">
                          Delta (95 % interval) <Define k="delta" />
                        </th>
                        <th
                          scope="col"
                          class="num opt"
                          title="Delta of (actual − expected) score given the players' ratings: does the item help, or do good players take it?"
                        >
                          Skill-adjusted
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.items.map((r) => (
                        <tr
                          key={`${r.item.category}/${r.item.name}`}
                          class={r.lowSample ? 'muted' : undefined}
                        >
                          <th scope="row">
                            {r.item.name}
                            <small class="category">{r.item.category}</small>
                          </th>
                          <td class="num opt">{num(r.lists)}</td>
                          <td class="num opt">{pct(r.share)}</td>
                          <td class="num opt">{num(r.games)}</td>
                          <td class="num">
                            <IntervalBar
                              value={r.winRate}
                              low={r.winRateInterval?.low ?? null}
                              high={r.winRateInterval?.high ?? null}
                            />
                          </td>
                          <td class="num">{pct(r.winRateWithout)}</td>
                          <td class="num">
                            <DeltaBar value={r.delta} interval={r.deltaInterval} />
                          </td>
                          <td class="num opt">{signed(r.skillAdjustedDelta)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <div class="table-tools">
                  <DownloadCsv
                    name="items"
                    header={ITEM_CSV.map(([h]) => h)}
                    rows={() => data.items.map((r) => ITEM_CSV.map(([, value]) => value(r)))}
                  />
                </div>
              </>
            )}
            <Pager
              page={data.page}
              pageSize={data.pageSize}
              total={data.total}
              what="items"
              onPage={(p) => update({ page: String(p) })}
            />
          </>
        )}
      </Show>
    </>
  );
}
