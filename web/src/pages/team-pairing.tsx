/**
 * Team pairing (docs/team-pairing.md): two teams, from an imported team event or typed, their
 * pairing matrix from the joint model (POST /api/team-matrix) as a heatmap a captain may
 * overwrite cell by cell, and below it the pairing draft solved step by step
 * (POST /api/team-pairing, team-draft.tsx).
 */
import { useState } from 'preact/hooks';
import { post } from '../api.ts';
import { SearchBox } from '../components/search-box.tsx';
import { Show } from '../components/status.tsx';
import type { SystemOptions } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';
import { TeamMatrixView } from './team-matrix-view.tsx';
import type { Team } from './team-matrix-view.tsx';

export function TeamPairingPage({ filter, system }: PageProps) {
  const [source, setSource] = useState<'event' | 'typed'>('event');
  const [teams, setTeams] = useState<[Team, Team] | null>(null);
  return (
    <section aria-labelledby="pairing-h" class="team-pairing">
      <h2 id="pairing-h">Two teams, their matrix, the draft</h2>
      <p class="note">
        Your team is A (the rows). Each cell is your player's expected score against theirs from the
        joint model; overwrite any cell with what you know, then walk the pairing draft: at each
        step the recommended mix, their best reply, and the expected team score.
      </p>
      <div class="tabs" role="tablist" aria-label="Where the teams come from">
        {(
          [
            ['event', 'From a team event'],
            ['typed', 'Type two teams'],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            role="tab"
            type="button"
            aria-selected={source === key}
            onClick={() => {
              setSource(key);
              setTeams(null);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      {source === 'event' ? (
        <EventTeams systemId={filter.system} onTeams={setTeams} />
      ) : (
        <TypedTeams systemId={filter.system} system={system} onTeams={setTeams} />
      )}
      {teams !== null && (
        <TeamMatrixView key={JSON.stringify(teams)} systemId={filter.system} teams={teams} />
      )}
    </section>
  );
}

/** The system's team events, newest first; the chosen one's teams, or why there are none. */
function EventTeams({
  systemId,
  onTeams,
}: {
  systemId: string | undefined;
  onTeams: (teams: [Team, Team] | null) => void;
}) {
  const [event, setEvent] = useState('');
  const events = useApi(`team-events ${systemId}`, (signal) =>
    post('/api/events', { system: systemId, format: 'teams', pageSize: 200 }, signal),
  );
  return (
    <Show result={events} what="the team events">
      {({ data }) =>
        data.events.length === 0 ? (
          <p class="note">No team events in this system's data: type two teams instead.</p>
        ) : (
          <>
            <label>
              Team event{' '}
              <select
                value={event}
                data-testid="pairing-event"
                onChange={(e) => {
                  setEvent(e.currentTarget.value);
                  onTeams(null);
                }}
              >
                <option value="">Choose…</option>
                {[...data.events].reverse().map((e) => (
                  <option key={e.id} value={e.id}>
                    {e.date} {e.name}
                  </option>
                ))}
              </select>
            </label>
            {event !== '' && (
              <EventTeamPicker systemId={systemId} event={event} onTeams={onTeams} />
            )}
          </>
        )
      }
    </Show>
  );
}

function EventTeamPicker({
  systemId,
  event,
  onTeams,
}: {
  systemId: string | undefined;
  event: string;
  onTeams: (teams: [Team, Team] | null) => void;
}) {
  const [picked, setPicked] = useState<[number, number]>([0, 1]);
  const page = useApi(`team-event ${systemId} ${event}`, (signal) =>
    post('/api/events', { system: systemId, event }, signal),
  );
  return (
    <Show result={page} what="the event's teams">
      {({ data }) => {
        const teams = data.event?.teams?.teams ?? null;
        if (teams === null || teams.length < 2) {
          return (
            <p class="note" data-testid="no-teams">
              This event's source gives no team membership (T9A results list a team event's players
              without their teams): type the two teams instead.
            </p>
          );
        }
        const asTeam = (i: number): Team => ({
          name: teams[i].name,
          members: teams[i].members
            .filter((m) => m.faction !== null)
            .map((m) => ({ player: m.player.id, name: m.player.name, faction: m.faction!.id })),
        });
        return (
          <form class="controls" onSubmit={(e) => e.preventDefault()}>
            {(['Your team (A)', 'Their team (B)'] as const).map((label, side) => (
              <label key={label}>
                {label}{' '}
                <select
                  value={picked[side]}
                  data-testid={`pairing-team-${side === 0 ? 'a' : 'b'}`}
                  onChange={(e) => {
                    const next: [number, number] = [...picked];
                    next[side] = Number(e.currentTarget.value);
                    setPicked(next);
                  }}
                >
                  {teams.map((t, i) => (
                    <option key={t.name} value={i}>
                      {t.name} ({t.members.length})
                    </option>
                  ))}
                </select>
              </label>
            ))}
            <button
              type="button"
              data-testid="pairing-show"
              disabled={picked[0] === picked[1]}
              onClick={() => onTeams([asTeam(picked[0]), asTeam(picked[1])])}
            >
              Show the matrix
            </button>
          </form>
        );
      }}
    </Show>
  );
}

const blankTeam = (name: string, faction: string): Team => ({
  name,
  members: Array.from({ length: 5 }, () => ({ player: '', name: null, faction })),
});

/** Two teams typed: each player's id (from their page's link) and faction. */
function TypedTeams({
  systemId,
  system,
  onTeams,
}: {
  systemId: string | undefined;
  system: SystemOptions | undefined;
  onTeams: (teams: [Team, Team] | null) => void;
}) {
  const factions = system?.factions ?? [];
  const first = factions[0]?.id ?? '';
  const [teams, setTeams] = useState<[Team, Team]>([blankTeam('A', first), blankTeam('B', first)]);
  const edit = (side: number, row: number, patch: Partial<Team['members'][number]>) => {
    const next = teams.map((t) => ({ ...t, members: [...t.members] })) as [Team, Team];
    next[side].members[row] = { ...next[side].members[row], ...patch };
    setTeams(next);
  };
  const resize = (size: number) =>
    setTeams(
      teams.map((t) => ({
        ...t,
        members: Array.from(
          { length: size },
          (_, i) => t.members[i] ?? { player: '', name: null, faction: first },
        ),
      })) as [Team, Team],
    );
  const complete = teams.every((t) => t.members.every((m) => m.player.trim() !== ''));
  // A player found by the search fills the first empty place, yours first.
  const place = (player: string, faction: string | null) => {
    for (const side of [0, 1]) {
      const row = teams[side].members.findIndex((m) => m.player === '');
      if (row >= 0) return edit(side, row, { player, ...(faction ? { faction } : {}) });
    }
  };
  return (
    <form class="typed-teams" onSubmit={(e) => e.preventDefault()}>
      <PlayerSearch systemId={systemId} onPick={place} />
      <label>
        Players a team{' '}
        <select
          value={teams[0].members.length}
          onChange={(e) => resize(Number(e.currentTarget.value))}
        >
          {[3, 4, 5, 6, 7, 8].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      {teams.map((team, side) => (
        <fieldset key={side}>
          <legend>{side === 0 ? 'Your team (A)' : 'Their team (B)'}</legend>
          {team.members.map((m, row) => (
            <div class="typed-member" key={row}>
              <input
                aria-label={`Team ${side === 0 ? 'A' : 'B'} player ${row + 1} id`}
                placeholder="Player id"
                value={m.player}
                onChange={(e) => edit(side, row, { player: e.currentTarget.value.trim() })}
              />
              <select
                aria-label={`Team ${side === 0 ? 'A' : 'B'} player ${row + 1} faction`}
                value={m.faction}
                onChange={(e) => edit(side, row, { faction: e.currentTarget.value })}
              >
                {factions.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
      ))}
      <p class="secondary">
        A player id the data does not know is forecast as a newcomer (no games yet) with a wider
        interval. Find players by name with the search above.
      </p>
      <button type="button" disabled={!complete} onClick={() => onTeams(teams)}>
        Show the matrix
      </button>
    </form>
  );
}

/** Players whose name or id holds the text (the rankings' search), each a button that places them. */
function PlayerSearch({
  systemId,
  onPick,
}: {
  systemId: string | undefined;
  onPick: (player: string, faction: string | null) => void;
}) {
  const [text, setText] = useState('');
  const body = { system: systemId, search: text, includeProvisional: true, pageSize: 8 };
  const found = useApi(text === '' ? null : JSON.stringify(body), (signal) =>
    post('/api/rankings', body, signal),
  );
  return (
    <div class="player-search">
      <SearchBox label="Find a player (name or id)" value={text} onSearch={setText} />
      {text !== '' && (
        <Show result={found} what="the players">
          {({ data }) => (
            <ul data-testid="player-search">
              {data.players.length === 0 && <li class="secondary">No player found.</li>}
              {data.players.map((row) => (
                <li key={row.player.id}>
                  <button
                    type="button"
                    onClick={() => onPick(row.player.id, row.mainFaction?.id ?? null)}
                  >
                    {row.player.name ?? row.player.id}
                    {row.mainFaction && ` (${row.mainFaction.name})`}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Show>
      )}
    </div>
  );
}
