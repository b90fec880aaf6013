/**
 * The pairing matrix of two teams (POST /api/team-matrix) as a heatmap: each cell the row
 * player's expected score with its 95% interval; a captain may overwrite any cell, which is
 * then marked and can be reset. The matrix as shown, overwritten cells included, feeds the draft.
 */
import { useState } from 'preact/hooks';
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import { Show, Warnings } from '../components/status.tsx';
import { useApi } from '../use-api.ts';
import { heatColour, wantsLightText } from './matchups.tsx';
import { TeamDraft } from './team-draft.tsx';

export interface Team {
  name: string;
  members: Array<{ player: string; name: string | null; faction: string }>;
}

type MatrixData = AnswerOf<'/api/team-matrix'>['data'];

/** One decimal on a game scale, a percentage on the 0-1 scale. */
function shown(value: number, total: number): string {
  if (total === 1) return `${Math.round(value * 100)}%`;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export function TeamMatrixView({
  systemId,
  teams,
}: {
  systemId: string | undefined;
  teams: [Team, Team];
}) {
  const [model, setModel] = useState<'joint' | 'rating' | 'faction'>('joint');
  const body = {
    system: systemId,
    model,
    teamA: teams[0].members.map(({ player, faction }) => ({ player, faction })),
    teamB: teams[1].members.map(({ player, faction }) => ({ player, faction })),
  };
  const matrix = useApi(JSON.stringify(body), (signal) => post('/api/team-matrix', body, signal));
  return (
    <>
      <h3>
        {teams[0].name} v {teams[1].name}
      </h3>
      <label>
        Model{' '}
        <select
          value={model}
          onChange={(e) => setModel(e.currentTarget.value as 'joint' | 'rating' | 'faction')}
        >
          <option value="joint">Joint (skill, faction, matchup)</option>
          <option value="rating">Rating only</option>
          <option value="faction">Faction only</option>
        </select>
      </label>
      <Show result={matrix} what="the matrix">
        {({ data, meta }) => (
          <>
            <Warnings warnings={meta.warnings} />
            <Heatmap key={JSON.stringify(body)} data={data} />
          </>
        )}
      </Show>
    </>
  );
}

function Heatmap({ data }: { data: MatrixData }) {
  const total = data.gameTotal ?? 1;
  const modelled = data.cells.map((row) => row.map((c) => c.score?.expected ?? c.expected));
  const [overrides, setOverrides] = useState<Record<string, number>>({});
  const [editing, setEditing] = useState<string | null>(null);
  const value = (i: number, j: number) => overrides[`${i},${j}`] ?? modelled[i][j];
  const set = (key: string, v: number | null) => {
    const next = { ...overrides };
    if (v === null) delete next[key];
    else next[key] = v;
    setOverrides(next);
  };
  const matrix = data.cells.map((row, i) => row.map((_, j) => value(i, j)));
  const square = data.rows.length === data.columns.length;
  const label = (p: MatrixData['rows'][number]) => `${p.name ?? p.id} (${p.faction.name})`;
  return (
    <>
      <div class="table-wrap heatmap-wrap pairing-matrix">
        <table class="heatmap" data-testid="pairing-matrix">
          <thead>
            <tr>
              <th class="corner" scope="col">
                <span class="sr-only">Your player v theirs</span>
              </th>
              {data.columns.map((c) => (
                <th key={c.id} scope="col" class="col-head">
                  <span>
                    {label(c)}
                    {!c.known && ' *'}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.cells.map((row, i) => (
              <tr key={data.rows[i].id}>
                <th scope="row">
                  {label(data.rows[i])}
                  {!data.rows[i].known && ' *'}
                </th>
                {row.map((cell, j) => (
                  <MatrixCell
                    key={`${i},${j}`}
                    cell={cell}
                    value={value(i, j)}
                    modelled={modelled[i][j]}
                    total={total}
                    overwritten={overrides[`${i},${j}`] !== undefined}
                    editing={editing === `${i},${j}`}
                    what={`${label(data.rows[i])} v ${label(data.columns[j])}`}
                    onEdit={(on) => setEditing(on ? `${i},${j}` : null)}
                    onSet={(v) => set(`${i},${j}`, v)}
                  />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="secondary">
        Your expected score in each pairing
        {data.gameTotal === null
          ? ' (win 1, draw ½)'
          : ` on the game's 0–${data.gameTotal} scale`}{' '}
        with its 95% interval, from the {data.model} model. Tap a cell to put in your own value; ✎
        marks yours, ↺ resets one.{' '}
        {data.rows.some((r) => !r.known) || data.columns.some((c) => !c.known)
          ? '* not in the data: forecast as a player with no games yet. '
          : ''}
        {Object.keys(overrides).length > 0 && (
          <button type="button" onClick={() => setOverrides({})}>
            Reset all to the model
          </button>
        )}
      </p>
      {square && data.rows.length >= 3 ? (
        <TeamDraft matrix={matrix} gameTotal={total} rows={data.rows} columns={data.columns} />
      ) : (
        <p class="note">The draft needs two teams of the same size, 3 to 8 players.</p>
      )}
    </>
  );
}

/** One pairing: the model's value and interval, or the captain's own, marked, with a reset. */
function MatrixCell({
  cell,
  value: v,
  modelled,
  total,
  overwritten,
  editing,
  what,
  onEdit,
  onSet,
}: {
  cell: MatrixData['cells'][number][number];
  value: number;
  modelled: number;
  total: number;
  overwritten: boolean;
  editing: boolean;
  what: string;
  onEdit: (on: boolean) => void;
  onSet: (value: number | null) => void;
}) {
  const background = heatColour(v / total);
  const low = cell.score?.low ?? cell.low;
  const high = cell.score?.high ?? cell.high;
  const pct = (p: number) => `${Math.round(p * 100)}%`;
  return (
    <td class={overwritten ? 'overwritten' : undefined}>
      {editing ? (
        <input
          class="cell-edit"
          type="number"
          min={0}
          max={total}
          step={total === 1 ? 0.05 : 1}
          aria-label={`Your value for ${what}`}
          value={v.toFixed(total === 1 ? 2 : 1)}
          autoFocus
          onBlur={() => onEdit(false)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === 'Escape') onEdit(false);
          }}
          onChange={(e) => {
            const typed = Number(e.currentTarget.value);
            if (Number.isFinite(typed) && typed >= 0 && typed <= total) onSet(typed);
          }}
        />
      ) : (
        <button
          type="button"
          class={`heat${wantsLightText(background) ? ' dark' : ''}`}
          style={{ backgroundColor: background }}
          title={
            overwritten
              ? `Yours: ${shown(v, total)} (model ${shown(modelled, total)})`
              : `Expected ${shown(v, total)}, 95% interval ${shown(low, total)}–${shown(high, total)}; win ${pct(cell.win)}, draw ${pct(cell.draw)}, loss ${pct(cell.loss)}`
          }
          onClick={() => onEdit(true)}
        >
          {shown(v, total)}
          <small>{overwritten ? '✎ yours' : `${shown(low, total)}–${shown(high, total)}`}</small>
        </button>
      )}
      {overwritten && !editing && (
        <button
          type="button"
          class="cell-reset"
          aria-label={`Reset ${what} to the model`}
          onClick={() => onSet(null)}
        >
          ↺
        </button>
      )}
    </td>
  );
}
