/** Scenarios: maps, deployments, primaries and secondaries, and per-faction results in one. */
import { post } from '../api.ts';
import { FactionLink } from '../components/entity-link.tsx';
import { rateColumns } from '../components/rate-columns.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { isolate, num, pct } from '../format.ts';
import type { ScenarioStats } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

type ScenarioRow = ScenarioStats['data']['scenarios'][number];
type FactionResult = ScenarioRow['factions'][number];

const KINDS = [
  ['scenario', 'Scenarios'],
  ['map', 'Maps'],
  ['deployment', 'Deployments'],
  ['primary', 'Primaries'],
  ['secondary', 'Secondaries'],
] as const;

const share = (part: number, p: { attacker: number; defender: number; none: number } | null) => {
  if (p === null) return null;
  const all = p.attacker + p.defender + p.none;
  return all > 0 ? part / all : null;
};

const FACTION_COLUMNS: Array<Column<FactionResult>> = [
  {
    key: 'faction',
    label: 'Faction',
    sort: (r) => r.faction.name,
    render: (r) => <FactionLink faction={r.faction} />,
  },
  ...rateColumns(),
];

/** The scenarios' columns: the primary's outcome, or for secondaries how often each side achieved it. */
function scenarioColumns(
  secondary: boolean,
  chosen: string | undefined,
  onChoose: (name: string) => void,
): Array<Column<ScenarioRow>> {
  return [
    {
      key: 'name',
      label: 'Name',
      sort: (r) => r.name,
      render: (r) => (
        <button
          type="button"
          class="link"
          aria-pressed={r.name === chosen}
          onClick={() => onChoose(r.name)}
        >
          {r.name}
        </button>
      ),
    },
    {
      key: 'games',
      label: 'Games',
      numeric: true,
      sort: (r) => r.games,
      render: (r) => num(r.games),
    },
    {
      key: 'first',
      label: '1st-turn win rate',
      numeric: true,
      sort: (r) => r.firstTurn.winRate,
      render: (r) => pct(r.firstTurn.winRate),
      title: 'Win rate of the side that went first',
    },
    ...(secondary
      ? [
          {
            key: 'ach',
            label: 'Achieved',
            numeric: true,
            sort: (r: ScenarioRow) => r.secondary?.achievedRate ?? null,
            render: (r: ScenarioRow) => pct(r.secondary?.achievedRate),
          },
          {
            key: 'att',
            label: 'Attacker achieved',
            numeric: true,
            sort: (r: ScenarioRow) => r.secondary?.attackerRate ?? null,
            render: (r: ScenarioRow) => pct(r.secondary?.attackerRate),
          },
          {
            key: 'def',
            label: 'Defender achieved',
            numeric: true,
            sort: (r: ScenarioRow) => r.secondary?.defenderRate ?? null,
            render: (r: ScenarioRow) => pct(r.secondary?.defenderRate),
          },
        ]
      : [
          {
            key: 'att',
            label: 'Attacker won primary',
            numeric: true,
            sort: (r: ScenarioRow) => share(r.primary?.attacker ?? 0, r.primary),
            render: (r: ScenarioRow) => pct(share(r.primary?.attacker ?? 0, r.primary)),
          },
          {
            key: 'def',
            label: 'Defender won primary',
            numeric: true,
            sort: (r: ScenarioRow) => share(r.primary?.defender ?? 0, r.primary),
            render: (r: ScenarioRow) => pct(share(r.primary?.defender ?? 0, r.primary)),
          },
          {
            key: 'none',
            label: 'Neither',
            numeric: true,
            sort: (r: ScenarioRow) => share(r.primary?.none ?? 0, r.primary),
            render: (r: ScenarioRow) => pct(share(r.primary?.none ?? 0, r.primary)),
          },
        ]),
  ];
}

type Kind = (typeof KINDS)[number][0];

/** The kind shown: the one in the URL, else the first with data (T9A has no "scenario" names). */
function kindShown(asked: string | undefined, rows: ScenarioRow[]): Kind {
  const named = KINDS.find(([k]) => k === asked)?.[0];
  return named ?? KINDS.find(([k]) => rows.some((r) => r.kind === k))?.[0] ?? 'scenario';
}

function KindTabs({
  kind,
  rows,
  onChoose,
}: {
  kind: Kind;
  rows: ScenarioRow[];
  onChoose: (k: Kind) => void;
}) {
  return (
    <div class="tabs" role="group" aria-label="Scenario part">
      {KINDS.map(([k, label]) => {
        const empty = !rows.some((r) => r.kind === k);
        return (
          <button
            key={k}
            type="button"
            aria-pressed={k === kind}
            class={empty ? 'no-data' : undefined}
            title={empty ? `No games with a known ${k}` : undefined}
            data-testid={`kind-${k}`}
            onClick={() => onChoose(k)}
          >
            {label}
            {empty && <span class="no-data-note"> (no {k} data)</span>}
          </button>
        );
      })}
    </div>
  );
}

export function ScenariosPage({ params, update, filter }: PageProps) {
  // Every kind in one request: the page opens on the first kind that has data.
  const body = { ...filter };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/scenario-stats', body, signal),
  );
  return (
    <Show result={result} what="scenario statistics">
      {({ data, meta }) => {
        const kind = kindShown(params.kind, data.scenarios);
        const rows = data.scenarios.filter((r) => r.kind === kind);
        const chosen = rows.find((r) => r.name === params.scenario);
        const columns = scenarioColumns(kind === 'secondary', chosen?.name, (name) =>
          update({ scenario: name }, true),
        );
        return (
          <>
            <KindTabs
              kind={kind}
              rows={data.scenarios}
              onChoose={(k) => update({ kind: k, scenario: '' })}
            />
            <Warnings warnings={meta.warnings} />
            {rows.length === 0 ? (
              <Empty>No games with a known {kind} match these filters.</Empty>
            ) : (
              <>
                <SortableTable
                  caption={`${KINDS.find(([k]) => k === kind)?.[1]}: choose one to see each faction's results`}
                  columns={columns}
                  rows={rows}
                  rowKey={(r) => r.name}
                />
                {chosen ? (
                  <section aria-labelledby="per-faction-h">
                    <h2 id="per-faction-h">
                      Factions in <bdi>{chosen.name}</bdi>
                    </h2>
                    <SortableTable
                      caption={`Each faction's results in games with ${isolate(chosen.name)}. Muted rows have fewer than 30 games.`}
                      columns={FACTION_COLUMNS}
                      rows={chosen.factions}
                      rowKey={(r) => r.faction.id}
                      muted={(r) => r.lowSample}
                      initialSort={{ key: 'games', desc: true }}
                    />
                  </section>
                ) : (
                  <p class="note">Choose a {kind} above to see each faction's results in it.</p>
                )}
              </>
            )}
          </>
        );
      }}
    </Show>
  );
}
