/**
 * Before/after: two windows of the same system side by side (docs/statistics.md#compareto), per
 * faction and per matchup the change in win rate with its 95 % Newcombe interval. A change whose
 * interval excludes 0 is highlighted; the others are greyed, since they may be noise alone.
 */
import { post } from '../api.ts';
import type { Window, Windows } from '../compare-windows.ts';
import {
  describeWindow,
  rulesOrder,
  rulesUpdates,
  windowFilter,
  windowsOf,
  windowsPatch,
} from '../compare-windows.ts';
import { DeltaBar } from '../components/delta-bar.tsx';
import { FactionLink } from '../components/entity-link.tsx';
import { FileStem } from '../components/download.tsx';
import { fileStem } from '../csv.ts';
import { IntervalBar } from '../components/interval-bar.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num } from '../format.ts';
import type { CommonFilter, FactionRow, MatchupCell, SystemOptions } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

/** What a compared row carries: its own rate and the `compare` block. */
interface Compared {
  games: number;
  winRate: number | null;
  winRateInterval: { low: number; high: number } | null;
  compare?: FactionRow['compare'];
}

/**
 * A change worth emphasising: 20 games in each window, an interval that excludes 0 and
 * significant after Benjamini–Hochberg over the answer's comparisons (docs/statistics.md#emphasis).
 */
const changed = (r: Compared): boolean => r.compare?.emphasised === true;

/** Why a change whose interval excludes 0 is muted all the same (docs/statistics.md#emphasis). */
function shortfall(r: Compared): string | null {
  const c = r.compare;
  if (c === undefined || c.emphasised) return null;
  if (!c.enoughGames) return 'fewer than 20 games in a window, too few to single out';
  return 'not significant once corrected for the number of comparisons (Benjamini–Hochberg)';
}

/**
 * The scales the rows need: win rates on at least 25–75 %, changes on at least ±30 pp, widened
 * (in 5 and 10 pp steps) so that no interval of these rows is clipped.
 */
function scales(rows: Compared[]): { min: number; max: number; limit: number } {
  const rates = rows.flatMap((r) => [r.winRateInterval, r.compare?.winRateInterval]);
  const lows = rates.map((i) => i?.low ?? 0.5);
  const highs = rates.map((i) => i?.high ?? 0.5);
  const diffs = rows.flatMap((r) => {
    const d = r.compare?.differenceInterval;
    return d ? [Math.abs(d.low), Math.abs(d.high)] : [];
  });
  return {
    min: Math.min(0.25, Math.floor(Math.min(...lows, 1) * 20) / 20),
    max: Math.max(0.75, Math.ceil(Math.max(...highs, 0) * 20) / 20),
    limit: Math.max(0.3, Math.ceil(Math.max(...diffs, 0) * 10) / 10),
  };
}

/** Before (the compareTo scope), after (the request's own) and the change, for any compared row. */
function comparedColumns<R extends Compared>(rows: R[]): Array<Column<R>> {
  const { min, max, limit } = scales(rows);
  const rate = (
    key: string,
    label: string,
    pick: (r: R) => Pick<Compared, 'games' | 'winRate' | 'winRateInterval'> | undefined,
  ): Column<R> => ({
    key,
    label,
    numeric: true,
    define: 'winRate',
    sort: (r) => pick(r)?.winRate ?? null,
    csv: [
      [`${key}Games`, (r) => pick(r)?.games ?? 0],
      [`${key}WinRate`, (r) => pick(r)?.winRate ?? null],
      [`${key}Low`, (r) => pick(r)?.winRateInterval?.low ?? null],
      [`${key}High`, (r) => pick(r)?.winRateInterval?.high ?? null],
    ],
    render: (r) => {
      const side = pick(r);
      return (
        <span class="window-rate">
          <IntervalBar
            value={side?.winRate ?? null}
            low={side?.winRateInterval?.low ?? null}
            high={side?.winRateInterval?.high ?? null}
            min={min}
            max={max}
          />
          <small class="games">{num(side?.games ?? 0)} games</small>
        </span>
      );
    },
  });
  return [
    rate('before', 'Before', (r) => r.compare),
    rate('after', 'After', (r) => r),
    {
      key: 'change',
      label: 'Change (95 % interval)',
      numeric: true,
      define: 'difference',
      sort: (r) => r.compare?.difference ?? null,
      csv: [
        ['change', (r) => r.compare?.difference ?? null],
        ['changeLow', (r) => r.compare?.differenceInterval?.low ?? null],
        ['changeHigh', (r) => r.compare?.differenceInterval?.high ?? null],
        [
          'excludesZero',
          (r) => (r.compare?.excludesZero == null ? null : String(r.compare.excludesZero)),
        ],
        ['enoughGames', (r) => (r.compare === undefined ? null : String(r.compare.enoughGames))],
        ['adjustedP', (r) => r.compare?.adjustedPValue ?? null],
        ['emphasised', (r) => (r.compare === undefined ? null : String(changed(r)))],
      ],
      render: (r) => (
        <DeltaBar
          value={r.compare?.difference ?? null}
          interval={r.compare?.differenceInterval ?? null}
          limit={limit}
          shortfall={shortfall(r)}
        />
      ),
    },
  ];
}

const factionColumns = (rows: FactionRow[]): Array<Column<FactionRow>> => [
  {
    key: 'faction',
    label: 'Faction',
    sort: (r) => r.faction.name,
    render: (r) => <FactionLink faction={r.faction} />,
  },
  ...comparedColumns(rows),
];

interface Pair extends MatchupCell {
  label: string;
}

const matchupColumns = (rows: Pair[]): Array<Column<Pair>> => [
  { key: 'matchup', label: 'Matchup', sort: (r) => r.label, render: (r) => r.label },
  ...comparedColumns(rows),
];

/** Each matchup once (row faction first in the system's order), with games in both windows. */
function pairs(cells: MatchupCell[], names: Map<string, string>, order: string[]): Pair[] {
  return cells
    .filter((c) => order.indexOf(c.faction) < order.indexOf(c.opponent))
    .filter((c) => c.games > 0 && (c.compare?.games ?? 0) > 0)
    .map((c) => ({ ...c, label: `${names.get(c.faction)} vs ${names.get(c.opponent)}` }));
}

function WindowFields({
  side,
  title,
  window,
  versions,
  onChange,
}: {
  side: string;
  title: string;
  window: Window;
  versions: string[];
  onChange: (next: Window) => void;
}) {
  const value = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLSelectElement).value;
  return (
    <fieldset class="window" data-window={side}>
      <legend>{title}</legend>
      <label>
        From
        <input
          type="date"
          value={window.from}
          onChange={(e) => onChange({ ...window, from: value(e) })}
        />
      </label>
      <label>
        To
        <input
          type="date"
          value={window.to}
          onChange={(e) => onChange({ ...window, to: value(e) })}
        />
      </label>
      <label>
        Rules
        <select value={window.rules} onChange={(e) => onChange({ ...window, rules: value(e) })}>
          <option value="">every version</option>
          {versions.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}

function Choice({
  system,
  windows,
  choose,
}: {
  system: SystemOptions;
  windows: Windows;
  choose: (next: Windows) => void;
}) {
  const updates = rulesUpdates(system);
  const current = updates.findIndex((u) => JSON.stringify(u.windows) === JSON.stringify(windows));
  return (
    <div class="compare-choice">
      {updates.length > 0 && (
        <label>
          Before/after a rules update
          <select
            data-testid="rules-update"
            value={String(current)}
            onChange={(e) => {
              const i = Number((e.currentTarget as HTMLSelectElement).value);
              if (i >= 0) choose(updates[i].windows);
            }}
          >
            <option value="-1">choose the windows below</option>
            {updates.map((u, i) => (
              <option key={u.label} value={String(i)}>
                {u.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <div class="windows">
        {(['before', 'after'] as const).map((side) => (
          <WindowFields
            key={side}
            side={side}
            title={side === 'before' ? 'Before' : 'After'}
            window={windows[side]}
            versions={rulesOrder(system)}
            onChange={(next) => choose({ ...windows, [side]: next })}
          />
        ))}
      </div>
    </div>
  );
}

/** The bar's filter without its dates and rules versions: the windows set those. */
function shared(filter: CommonFilter): CommonFilter {
  const { from: _from, to: _to, rulesVersions: _rules, ...rest } = filter;
  return rest;
}

/**
 * The matchups worth a look: every emphasised change, else at least the 10 largest, those with
 * 20 games in each window before any with fewer (docs/statistics.md#emphasis); in that order.
 */
function notable(rows: Pair[]): Pair[] {
  return byEmphasis(rows).slice(0, Math.max(10, rows.filter(changed).length));
}

/**
 * Rows in the order a reader should meet them: emphasised changes, then those with 20 games in
 * each window, then the rest, each part by the size of its change (docs/statistics.md#emphasis).
 */
function byEmphasis<R extends Compared>(rows: R[]): R[] {
  const size = (r: R) => Math.abs(r.compare?.difference ?? 0);
  const enough = (r: R) => Number(r.compare?.enoughGames === true);
  return [...rows].sort(
    (a, b) => Number(changed(b)) - Number(changed(a)) || enough(b) - enough(a) || size(b) - size(a),
  );
}

function Results({
  windows,
  filter,
  all,
  showAll,
}: {
  windows: Windows;
  filter: CommonFilter;
  all: boolean;
  showAll: (all: boolean) => void;
}) {
  const { system: _system, ...common } = shared(filter);
  const body = {
    ...shared(filter),
    ...windowFilter(windows.after),
    compareTo: { ...common, ...windowFilter(windows.before) },
  };
  const key = JSON.stringify(body);
  const factions = useApi(key, (signal) => post('/api/faction-stats', body, signal));
  const matchups = useApi(key, (signal) => post('/api/army-matchup', body, signal));
  return (
    <Show result={factions} what="the two windows">
      {({ data, meta }) => {
        const before = meta.compareSample;
        if (data.factions.length === 0 && (before?.games ?? 0) === 0)
          return <Empty>Neither window has a game with these filters.</Empty>;
        return (
          <>
            <Warnings warnings={meta.warnings} />
            <p class="compare-summary" data-testid="compare-summary">
              Before: {describeWindow(windows.before)}, {num(before?.games ?? 0)} games. After:{' '}
              {describeWindow(windows.after)}, {num(meta.sample.games)} games. A change is after
              minus before; <strong>bold</strong> rows changed beyond their 95 % interval with at
              least 20 games in each window, and stay significant once corrected for the number of
              rows compared (Benjamini–Hochberg, false discovery rate 5 %); grey ones may be noise
              alone or rest on too few games.
            </p>
            <SortableTable
              caption="Win rate per faction, before and after"
              name="factions"
              columns={factionColumns(data.factions)}
              rows={byEmphasis(data.factions)}
              rowKey={(r) => r.faction.id}
              muted={(r) => !changed(r)}
              highlighted={changed}
            />
            <h2>Matchups</h2>
            <Show result={matchups} what="the matchups">
              {(m) => {
                const names = new Map(m.data.factions.map((f) => [f.id, f.name]));
                const rows = pairs(
                  m.data.cells,
                  names,
                  m.data.factions.map((f) => f.id),
                );
                if (rows.length === 0) return <Empty>No matchup was played in both windows.</Empty>;
                const shown = all ? rows : notable(rows);
                return (
                  <>
                    <SortableTable
                      caption={
                        shown.length < rows.length
                          ? `The ${shown.length} matchups that changed most, of ${rows.length} played in both windows: those with 20 games in each window first (first faction's win rate)`
                          : `The ${rows.length} matchups played in both windows (first faction's win rate)`
                      }
                      name="matchups"
                      columns={matchupColumns(shown)}
                      rows={shown}
                      rowKey={(r) => `${r.faction}~${r.opponent}`}
                      muted={(r) => !changed(r)}
                      highlighted={changed}
                      initialSort={all ? { key: 'change', desc: true } : undefined}
                    />
                    {rows.length > shown.length || all ? (
                      <button type="button" class="link" onClick={() => showAll(!all)}>
                        {all
                          ? 'Show the notable matchups only'
                          : `Show all ${rows.length} matchups`}
                      </button>
                    ) : null}
                  </>
                );
              }}
            </Show>
          </>
        );
      }}
    </Show>
  );
}

export function ComparePage({ params, update, filter, system }: PageProps) {
  if (system === undefined) return <Empty>The store holds no games yet.</Empty>;
  const windows = windowsOf(params, system);
  return (
    <>
      <p class="legend">
        Two windows of {system.name} side by side: per faction and per matchup, the win rate in each
        and the change with its 95 % interval.
      </p>
      <Choice system={system} windows={windows} choose={(next) => update(windowsPatch(next))} />
      <FileStem.Provider
        value={fileStem('compare', shared(filter), [
          describeWindow(windows.before),
          'vs',
          describeWindow(windows.after),
        ])}
      >
        <Results
          windows={windows}
          filter={filter}
          all={params.pairs === 'all'}
          showAll={(all) => update({ pairs: all ? 'all' : '' }, true)}
        />
      </FileStem.Provider>
    </>
  );
}
