/**
 * A team event's teams as its source gives them (canonical `team` on each entry,
 * docs/statistics.md#team-events): each team's members and the sum of their games, and each
 * round's team matches with the members' game wins and summed scores. No system declares a team
 * scoring rule yet, so no team is placed: these are sums, said as sums.
 */
import { RESULT_DRAW, RESULT_WIN } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { entryRef, eventEntries } from './event-facts.ts';
import type { EntryRef } from './event-facts.ts';
import { eventIndex } from './event-index.ts';

export interface TeamRow {
  name: string;
  members: EntryRef[];
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** Sum of the members' known game scores; null when none is known. */
  score: number | null;
}

export interface TeamMatch {
  round: number | null;
  teams: [string, string];
  games: number;
  /** Games won by each team's members. */
  wins: [number, number];
  draws: number;
  /** Each team's summed known scores; null when none is known. */
  score: [number | null, number | null];
}

export interface EventTeams {
  teams: TeamRow[];
  matches: TeamMatch[];
}

const add = (a: number | null, b: number): number | null => (Number.isNaN(b) ? a : (a ?? 0) + b);

/** The team of each player at event `e` (team index), from its standings rows. */
function teamOfPlayers(snapshot: Snapshot, e: number): Map<number, number> {
  const st = snapshot.standings;
  const out = new Map<number, number>();
  for (const i of eventEntries(snapshot, e)) if (st.team[i] >= 0) out.set(st.player[i], st.team[i]);
  return out;
}

/** Each team's members and summed record, by name. */
function teamRows(snapshot: Snapshot, e: number, teamOf: Map<number, number>): TeamRow[] {
  const st = snapshot.standings;
  const rows = new Map<number, TeamRow>();
  for (const i of eventEntries(snapshot, e)) {
    const t = st.team[i];
    if (t < 0) continue;
    let row = rows.get(t);
    if (row === undefined) {
      row = {
        name: snapshot.teams[t],
        members: [],
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        score: null,
      };
      rows.set(t, row);
    }
    row.members.push(entryRef(snapshot, i));
  }
  const { rowStart, rowEnd } = eventIndex(snapshot);
  for (let r = rowStart[e]; r < rowEnd[e]; r++) {
    const row = rows.get(teamOf.get(snapshot.player[r]) ?? -1);
    if (row === undefined) continue;
    row.games++;
    if (snapshot.result[r] === RESULT_WIN) row.wins++;
    else if (snapshot.result[r] === RESULT_DRAW) row.draws++;
    else row.losses++;
    row.score = add(row.score, snapshot.score[r]);
  }
  return [...rows.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Each round's team matches: the games between members of two teams, summed. */
function teamMatches(snapshot: Snapshot, e: number, teamOf: Map<number, number>): TeamMatch[] {
  const { rowStart, rowEnd } = eventIndex(snapshot);
  const matches = new Map<string, TeamMatch>();
  for (let r = rowStart[e]; r < rowEnd[e]; r += 2) {
    const a = teamOf.get(snapshot.player[r]);
    const b = teamOf.get(snapshot.player[r + 1]);
    if (a === undefined || b === undefined || a === b) continue;
    // Each match is told with its teams in name order, whichever side a game listed first.
    const [x, y] = snapshot.teams[a] <= snapshot.teams[b] ? [r, r + 1] : [r + 1, r];
    const round = snapshot.gameRound[r >> 1];
    const key = `${round}\u0000${Math.min(a, b)}\u0000${Math.max(a, b)}`;
    let m = matches.get(key);
    if (m === undefined) {
      const names: [string, string] = [
        snapshot.teams[teamOf.get(snapshot.player[x])!],
        snapshot.teams[teamOf.get(snapshot.player[y])!],
      ];
      m = {
        round: round < 0 ? null : round,
        teams: names,
        games: 0,
        wins: [0, 0],
        draws: 0,
        score: [null, null],
      };
      matches.set(key, m);
    }
    m.games++;
    if (snapshot.result[x] === RESULT_WIN) m.wins[0]++;
    else if (snapshot.result[y] === RESULT_WIN) m.wins[1]++;
    else if (snapshot.result[x] === RESULT_DRAW) m.draws++;
    m.score = [add(m.score[0], snapshot.score[x]), add(m.score[1], snapshot.score[y])];
  }
  const order = (round: number | null) => round ?? Number.MAX_SAFE_INTEGER;
  return [...matches.values()].sort(
    (p, q) => order(p.round) - order(q.round) || (p.teams[0] < q.teams[0] ? -1 : 1),
  );
}

/** The teams of event `e` when its entries name any; null when they name none. */
export function eventTeams(snapshot: Snapshot, e: number): EventTeams | null {
  const teamOf = teamOfPlayers(snapshot, e);
  if (teamOf.size === 0) return null;
  return { teams: teamRows(snapshot, e, teamOf), matches: teamMatches(snapshot, e, teamOf) };
}
