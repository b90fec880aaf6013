/** Scenarios: maps, deployments, primaries and secondaries, and per-faction results in one. */
import { post } from '../api.ts';
import { FactionLink } from '../components/entity-link.tsx';
import { rateColumns } from '../components/rate-columns.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct } from '../format.ts';
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

export function ScenariosPage({ params, update, filter }: PageProps) {
  const kind = KINDS.find(([k]) => k === params.kind)?.[0] ?? 'scenario';
  const body = { ...filter, kinds: [kind] };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/scenario-stats', body, signal),
  );
  const secondary = kind === 'secondary';
  return (
    <>
      <div class="tabs" role="group" aria-label="Scenario part">
        {KINDS.map(([k, label]) => (
          <button
            key={k}
            type="button"
            aria-pressed={k === kind}
            onClick={() => update({ kind: k, scenario: '' })}
          >
            {label}
          </button>
        ))}
      </div>
      <Show result={result} what="scenario statistics">
        {({ data, meta }) => {
          const rows = data.scenarios;
          if (rows.length === 0)
            return <Empty>No games with a known {kind} match these filters.</Empty>;
          const chosen = rows.find((r) => r.name === params.scenario);
          const columns = scenarioColumns(secondary, chosen?.name, (name) =>
            update({ scenario: name }, true),
          );
          return (
            <>
              <Warnings warnings={meta.warnings} />
              <SortableTable
                caption={`${KINDS.find(([k]) => k === kind)?.[1]}: choose one to see each faction's results`}
                columns={columns}
                rows={rows}
                rowKey={(r) => r.name}
              />
              {chosen ? (
                <section aria-labelledby="per-faction-h">
                  <h2 id="per-faction-h">Factions in {chosen.name}</h2>
                  <SortableTable
                    caption={`Each faction's results in games with ${chosen.name}. Muted rows have fewer than 30 games.`}
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
          );
        }}
      </Show>
    </>
  );
}
