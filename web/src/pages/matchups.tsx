/**
 * Matchups: a faction-by-faction heatmap of win rates, diverging around 50 % in a blue/orange
 * scheme that stays readable with common colour-vision deficiencies; each cell opens its numbers.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api.ts';
import { heatmapPng } from '../components/chart-png.ts';
import { DownloadCsv, DownloadPng } from '../components/download.tsx';
import { FactionLink } from '../components/entity-link.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct } from '../format.ts';
import type { MatchupCell as Cell, Matchups } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

/** Orange (below 50 %) through a light neutral to blue (above), reaching full colour at ±20 pp. */
export function heatColour(rate: number, faded = false): string {
  const t = Math.max(-1, Math.min(1, (rate - 0.5) / 0.2)) * (faded ? 0.45 : 1);
  const neutral = [247, 247, 247];
  const end = t < 0 ? [230, 97, 1] : [33, 102, 172];
  const mix = neutral.map((n, i) => Math.round(n + (end[i] - n) * Math.abs(t)));
  return `rgb(${mix.join(',')})`;
}

/** WCAG 2.1 relative luminance of an "rgb(r,g,b)" colour. */
function luminance(colour: string): number {
  const [r, g, b] = (colour.match(/\d+/g) ?? []).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** True when white text contrasts more than dark text (#1d2430) on this background. */
export function wantsLightText(colour: string): boolean {
  const l = luminance(colour);
  return 1.05 / (l + 0.05) > (l + 0.05) / (0.0167 + 0.05);
}

/** The heatmap as CSV: one row per cell, the interval as two columns. */
const MATCHUP_CSV: ReadonlyArray<
  readonly [string, (c: Cell, names: Map<string, string>) => string | number | null]
> = [
  ['faction', (c, n) => n.get(c.faction) ?? c.faction],
  ['opponent', (c, n) => n.get(c.opponent) ?? c.opponent],
  ['games', (c) => c.games],
  ['wins', (c) => c.wins],
  ['draws', (c) => c.draws],
  ['losses', (c) => c.losses],
  ['winRate', (c) => c.winRate],
  ['winRateLow', (c) => c.winRateInterval?.low ?? null],
  ['winRateHigh', (c) => c.winRateInterval?.high ?? null],
  ['shrunkWinRate', (c) => c.shrunkWinRate],
  ['avgScore', (c) => c.avgScore],
];

/** Set when a cell is chosen, so its details are brought into view and focused (not on load). */
let chosenByUser = false;

function Details({
  cell,
  names,
  onClose,
}: {
  cell: Cell;
  names: Map<string, string>;
  onClose: () => void;
}) {
  const title = `${names.get(cell.faction)} against ${names.get(cell.opponent)}`;
  const here = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!chosenByUser || here.current === null) return;
    chosenByUser = false;
    // Below the grid on a wide screen (scrolled to), a sheet at the bottom on a phone; either
    // way focus moves there, so a screen reader and a keyboard follow (Escape closes).
    here.current.scrollIntoView({ block: 'nearest' });
    here.current.focus({ preventScroll: true });
  }, [cell.faction, cell.opponent]);
  return (
    <section
      ref={here}
      class="cell-details"
      role="region"
      aria-label={title}
      aria-live="polite"
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <h2>
        <FactionLink
          faction={{ id: cell.faction, name: names.get(cell.faction) ?? cell.faction }}
        />{' '}
        against{' '}
        <FactionLink
          faction={{ id: cell.opponent, name: names.get(cell.opponent) ?? cell.opponent }}
        />
      </h2>
      {cell.faction === cell.opponent ? (
        <>
          <dl class="stats">
            <div>
              <dt>Games</dt>
              <dd>{num(cell.games)}</dd>
            </div>
          </dl>
          <p class="note" data-testid="mirror-note">
            A mirror: both sides play this faction, so every game it wins it also loses and its win
            rate here is 50 % by definition; only the number of games is shown.
          </p>
        </>
      ) : (
        <dl class="stats">
          <div>
            <dt>Games</dt>
            <dd>{num(cell.games)}</dd>
          </div>
          <div>
            <dt>Wins / draws / losses</dt>
            <dd>
              {cell.wins} / {cell.draws} / {cell.losses}
            </dd>
          </div>
          <div>
            <dt>Win rate</dt>
            <dd>{pct(cell.winRate)}</dd>
          </div>
          <div>
            <dt title="Pulled toward the row faction's overall win rate, more for fewer games: the colour">
              Shrunk win rate
            </dt>
            <dd>{pct(cell.shrunkWinRate)}</dd>
          </div>
          <div>
            <dt>95 % interval</dt>
            <dd>
              {cell.winRateInterval
                ? `${pct(cell.winRateInterval.low)} – ${pct(cell.winRateInterval.high)}`
                : '–'}
            </dd>
          </div>
          <div>
            <dt>Average score</dt>
            <dd>{num(cell.avgScore, 2)}</dd>
          </div>
        </dl>
      )}
      {cell.lowSample && cell.faction !== cell.opponent && (
        <p class="note">Fewer than 30 games: the interval is wide, read with care.</p>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </section>
  );
}

/** Arrow keys move the focus to the next filled cell of the grid, row by row or column by column. */
function gridKeys(ids: string[]): (event: KeyboardEvent) => void {
  return (event: KeyboardEvent) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    const move = moves[event.key];
    const from = (event.target as HTMLElement).dataset.cell;
    if (move === undefined || from === undefined) return;
    event.preventDefault();
    const [row, col] = from.split('~').map((id) => ids.indexOf(id));
    for (
      let r = row + move[0], c = col + move[1];
      r >= 0 && c >= 0 && r < ids.length && c < ids.length;
      r += move[0], c += move[1]
    ) {
      const next = (event.currentTarget as HTMLElement).querySelector<HTMLElement>(
        `[data-cell="${ids[r]}~${ids[c]}"]`,
      );
      if (next) {
        next.focus();
        return;
      }
    }
  };
}

/** The matrix as CSV (one row per cell) and as a PNG. */
function MatrixDownloads({
  data,
  names,
  cells,
}: {
  data: Matchups['data'];
  names: Map<string, string>;
  cells: Map<string, Cell>;
}) {
  return (
    <div class="chart-tools">
      <DownloadCsv
        name="cells"
        header={MATCHUP_CSV.map(([h]) => h)}
        rows={() => data.cells.map((c) => MATCHUP_CSV.map(([, value]) => value(c, names)))}
      />
      <DownloadPng
        name="heatmap"
        draw={() =>
          heatmapPng(
            'Win rate of each row faction against each column faction',
            data.factions.map((f) => f.name),
            (r, c) => {
              const cell = cells.get(`${data.factions[r].id}~${data.factions[c].id}`);
              if (cell === undefined) return undefined;
              const colour = heatColour(cell.shrunkWinRate ?? cell.winRate ?? 0.5, cell.lowSample);
              return { rate: cell.winRate, colour, light: wantsLightText(colour) };
            },
          )
        }
      />
    </div>
  );
}

/** Which rows and columns of the grid lie beyond its frame, in words ("" when none). */
function beyondFrame(el: HTMLElement): string {
  const below = el.scrollHeight - el.clientHeight - el.scrollTop > 2;
  const right = el.scrollWidth - el.clientWidth - el.scrollLeft > 2;
  if (below && right) return '↓ More rows below and → columns to the right';
  if (below) return '↓ More rows below';
  return right ? '→ More columns to the right' : '';
}

/** The grid in its frame, saying so under the frame while rows or columns lie beyond it. */
function HeatmapGrid({
  data,
  cells,
  params,
  update,
  tabbable,
  onKeyDown,
}: {
  data: Matchups['data'];
  cells: Map<string, Cell>;
  params: PageProps['params'];
  update: PageProps['update'];
  tabbable: string | undefined;
  onKeyDown: (event: KeyboardEvent) => void;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const [beyond, setBeyond] = useState('');
  const measure = () => {
    if (frame.current) setBeyond(beyondFrame(frame.current));
  };
  useEffect(() => {
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [data]);
  return (
    <>
      <div
        class="table-wrap heatmap-wrap"
        tabIndex={0}
        role="region"
        aria-label="Matchup heatmap"
        ref={frame}
        onScroll={measure}
      >
        <table class="heatmap" onKeyDown={onKeyDown}>
          <caption class="sr-only">
            Win rate of each row faction against each column faction
          </caption>
          <thead>
            <tr>
              <td class="corner" />
              {data.factions.map((f) => (
                <th key={f.id} scope="col" class="col-head">
                  <span>
                    <FactionLink faction={f} />
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.factions.map((row) => (
              <tr key={row.id}>
                <th scope="row">
                  <FactionLink faction={row} />
                </th>
                {data.factions.map((col) => {
                  const key = `${row.id}~${col.id}`;
                  const cell = cells.get(key);
                  if (cell === undefined || cell.winRate === null)
                    return <td key={key} class="blank" />;
                  // Coloured by the shrunk win rate, so a one-game cell does not shout 0 or
                  // 100 % (docs/statistics.md#shrinkage); the raw figure is the text.
                  const colourRate = cell.shrunkWinRate ?? cell.winRate;
                  const background = heatColour(colourRate, cell.lowSample);
                  const dark = wantsLightText(background);
                  return (
                    <td key={key} class={cell.lowSample ? 'low' : undefined}>
                      <button
                        type="button"
                        class={dark ? 'heat dark' : 'heat'}
                        style={{ backgroundColor: background }}
                        aria-pressed={params.cell === key}
                        data-cell={key}
                        data-colour-rate={String(colourRate)}
                        tabIndex={key === tabbable ? 0 : -1}
                        aria-label={`${row.name} against ${col.name}: ${pct(cell.winRate, 0)} over ${cell.games} games, ${pct(colourRate, 0)} shrunk${cell.lowSample ? ', low sample' : ''}`}
                        onClick={() => {
                          chosenByUser = true;
                          update({ cell: key }, true);
                        }}
                      >
                        {Math.round(cell.winRate * 100)}
                        <small>{cell.games}</small>
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {beyond && (
        <p class="heatmap-more" data-testid="heatmap-more" aria-hidden="true">
          {beyond}: scroll the grid
        </p>
      )}
    </>
  );
}

const byName = <F extends { name: string }>(factions: F[]): F[] =>
  [...factions].sort((a, b) => a.name.localeCompare(b.name, 'en'));

export function MatchupsPage({ params, update, filter }: PageProps) {
  const result = useApi(JSON.stringify(filter), (signal) =>
    post('/api/army-matchup', filter, signal),
  );
  return (
    <Show result={result} what="matchups">
      {({ data: answer, meta }) => {
        if (answer.cells.length === 0) return <Empty>No games match these filters.</Empty>;
        // Rows and columns in the order a reader looks a faction up in: by name, not by id.
        const data = { ...answer, factions: byName(answer.factions) };
        const names = new Map(data.factions.map((f) => [f.id, f.name]));
        const cells = new Map(data.cells.map((c) => [`${c.faction}~${c.opponent}`, c]));
        const open = params.cell ? cells.get(params.cell) : undefined;
        const ids = data.factions.map((f) => f.id);
        // One tab stop for the grid (the open cell, else the first); arrow keys move inside it.
        const first = data.cells.find((c) => c.winRate !== null);
        const tabbable = open ? params.cell : first && `${first.faction}~${first.opponent}`;
        const onKeyDown = gridKeys(ids);
        return (
          <>
            <Warnings warnings={meta.warnings} />
            <p class="legend">
              Row faction's win rate against the column faction; the small number is games. The
              colour is the shrunk win rate (pulled toward the row faction's overall rate, more for
              few games), so a one-game 0 or 100 % does not shout. Arrow keys move between cells;
              Enter opens one. <span class="swatch" style={{ background: heatColour(0.3) }} /> 30 %{' '}
              <span class="swatch" style={{ background: heatColour(0.5) }} /> 50 %{' '}
              <span class="swatch" style={{ background: heatColour(0.7) }} /> 70 %. Faded cells have
              fewer than 30 games (paler, dashed border).
            </p>
            <HeatmapGrid
              data={data}
              cells={cells}
              params={params}
              update={update}
              tabbable={tabbable}
              onKeyDown={onKeyDown}
            />
            <MatrixDownloads data={data} names={names} cells={cells} />
            {open && (
              <Details cell={open} names={names} onClose={() => update({ cell: '' }, true)} />
            )}
          </>
        );
      }}
    </Show>
  );
}
