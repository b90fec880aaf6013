/** Lists: what armies take (items and units), how often, and whether it pays off. */
import { post } from '../api.ts';
import { FactionLink } from '../components/entity-link.tsx';
import { DeltaBar } from '../components/delta-bar.tsx';
import { ITEM_COLUMN, SKILL_COLUMN } from '../components/item-column.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { winRateColumn } from '../components/rate-columns.tsx';
import { Pager } from '../components/pager.tsx';
import { SearchBox } from '../components/search-box.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct } from '../format.ts';
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
type Sort = (typeof SORTS)[number][0];

const PAGE_SIZE = 25;

/** The kinds of item (docs/statistics.md#item-use-stats), as the kind filter offers them. */
const KINDS = [
  ['unit', 'units'],
  ['option', 'options'],
  ['configuration', 'list configuration'],
] as const;
type Kind = (typeof KINDS)[number][0];

/**
 * Why a delta whose interval excludes 0 is shown muted all the same: fewer than 20 lists on a
 * side, or not significant once corrected for the items compared (docs/statistics.md#emphasis).
 */
function deltaShortfall(r: ItemRow): string | null {
  if (r.deltaEmphasised) return null;
  if (!r.deltaEnoughLists) return 'fewer than 20 lists with or without it, too few to single out';
  return 'not significant once corrected for the number of items compared (Benjamini–Hochberg)';
}

const ITEM_COLUMNS: Array<Column<ItemRow>> = [
  ITEM_COLUMN,
  {
    key: 'kind',
    label: 'Kind',
    optional: true,
    csv: [['kind', (r) => r.item.kind]],
    render: (r) => KINDS.find(([k]) => k === r.item.kind)?.[1] ?? r.item.kind,
  },
  {
    key: 'lists',
    label: 'List-games',
    title:
      'Games played by lists taking it, one per side: a list played in five games counts five times',
    numeric: true,
    optional: true,
    csv: [['lists', (r) => r.lists]],
    render: (r) => num(r.lists),
  },
  {
    key: 'share',
    label: 'Share',
    numeric: true,
    optional: true,
    csv: [['share', (r) => r.share]],
    render: (r) => pct(r.share),
  },
  {
    key: 'games',
    label: 'Side-games',
    title:
      'The same list-games without mirror games: a game where both lists take it counts twice, so this can exceed the games of the data',
    numeric: true,
    optional: true,
    csv: [['games', (r) => r.games]],
    render: (r) => num(r.games),
  },
  winRateColumn<ItemRow>('Win rate with '),
  {
    key: 'without',
    label: 'Without',
    numeric: true,
    csv: [['winRateWithout', (r) => r.winRateWithout]],
    render: (r) => pct(r.winRateWithout),
  },
  {
    key: 'delta',
    label: 'Delta (95 % interval) ',
    numeric: true,
    define: 'delta',
    csv: [
      ['delta', (r) => r.delta],
      ['deltaLow', (r) => r.deltaInterval?.low ?? null],
      ['deltaHigh', (r) => r.deltaInterval?.high ?? null],
    ],
    render: (r) => (
      <DeltaBar value={r.delta} interval={r.deltaInterval} shortfall={deltaShortfall(r)} />
    ),
  },
  SKILL_COLUMN,
];

/** The faction, the search and the order of the items, all kept in the URL. */
function ListControls({
  params,
  update,
  system,
  faction,
  sort,
  kind,
}: Pick<PageProps, 'params' | 'update' | 'system'> & {
  faction: string;
  sort: Sort;
  kind: string;
}) {
  const chosenFaction = system?.factions.find((f) => f.id === faction);
  return (
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
      <label>
        Kind
        <select
          value={kind}
          onChange={(e) => update({ kind: (e.currentTarget as HTMLSelectElement).value, page: '' })}
        >
          <option value="">every kind</option>
          {KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <SearchBox
        label="Search items"
        value={params.q ?? ''}
        onSearch={(q) => update({ q, page: '' })}
      />
      <label>
        Sort by
        <select
          value={sort}
          onChange={(e) => update({ sort: (e.currentTarget as HTMLSelectElement).value, page: '' })}
        >
          {SORTS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

export function ListsPage({ params, update, filter, system }: PageProps) {
  const faction = params.faction ?? '';
  const sort = SORTS.find(([s]) => s === params.sort)?.[0] ?? 'lists';
  const kind: Kind | '' = KINDS.find(([k]) => k === params.kind)?.[0] ?? '';
  const page = Math.max(1, Number(params.page) || 1);
  const body = {
    ...filter,
    ...(faction ? { factions: [faction] } : {}),
    ...(params.q ? { search: params.q } : {}),
    ...(kind ? { kinds: [kind] } : {}),
    sort,
    page,
    pageSize: PAGE_SIZE,
  };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/item-use-stats', body, signal),
  );
  return (
    <>
      <ListControls
        params={params}
        update={update}
        system={system}
        faction={faction}
        sort={sort}
        kind={kind}
      />
      <Show result={result} what="list statistics">
        {({ data, meta }) => (
          <>
            <Warnings warnings={meta.warnings} />
            {data.items.length === 0 ? (
              <Empty>No items match{params.q ? ` "${params.q}"` : ''} with these filters.</Empty>
            ) : (
              <>
                <p class="note">
                  <span data-testid="lists-in-scope">{num(data.distinctLists)} lists</span> in
                  scope, played in{' '}
                  <span data-testid="list-games-in-scope">{num(data.lists)} list-games</span> (a
                  list counts once for each game it played; "List-games" and "Side-games" beside an
                  item count the same way). "Without" is the win rate of the same faction's lists
                  that do not take the item; the delta is drawn with its 95 % interval and is greyed
                  when that interval includes 0 (it may be noise), when fewer than 20 lists take the
                  item or leave it out, or when it is not significant once corrected for the number
                  of items compared (Benjamini–Hochberg); sorted by delta, the items with 20 lists
                  on each side come first. "Skill-adjusted" takes out how much better than expected
                  the players taking the item are, with its 95 % interval, greyed the same way.
                </p>
                <SortableTable
                  caption={`Items and units, sorted by ${SORTS.find(([s]) => s === sort)?.[1]}`}
                  captionHidden
                  label="Items"
                  name="items"
                  columns={ITEM_COLUMNS}
                  rows={data.items}
                  rowKey={(r) => `${r.item.kind}/${r.item.category}/${r.item.name}`}
                  muted={(r) => r.lowSample}
                />
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
