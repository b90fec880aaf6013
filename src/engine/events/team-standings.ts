/**
 * A team event's teams as its source gives them (canonical `team` on each entry,
 * docs/statistics.md#team-events): each team's members and the sum of their games, and each
 * round's team matches with the members' game wins and summed scores. Under the system's team
 * rule each match is also scored (summed, capped as the event declares) and the teams ranked;
 * without one, these are sums, said as sums, and no team is placed.
 */
import type { TeamRankKey, TeamRule } from '../../domain/model.ts';
import { RESULT_DRAW, RESULT_WIN } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { eventIndex } from './event-index.ts';

export interface TeamRow<Member = number> {
  name: string;
  /** Its entries (standings rows, until event-teams.ts names them). */
  members: Member[];
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** Sum of the members' known game scores; null when none is known. */
  score: number | null;
  /** Under a team rule: its team matches won, drawn, lost by match score; else null. */
  matches: { wins: number; draws: number; losses: number } | null;
  /** Under a team rule: the total of its team match scores; else null. */
  matchScore: number | null;
  /** Under a team rule: its place by the rule (tied teams share one); else null. */
  place: number | null;
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
  /** Under a team rule: each team's match score, the sums capped; else null. */
  matchScore: [number, number] | null;
}

export interface EventTeams<Member = number> {
  /** The system's team rule by name; null when it declares none (nobody is ranked). */
  rule: string | null;
  /** The event's cap on a team's match score; null when uncapped or under no rule. */
  cap: number | null;
  teams: TeamRow<Member>[];
  matches: TeamMatch[];
}

const add = (a: number | null, b: number): number | null => (Number.isNaN(b) ? a : (a ?? 0) + b);

/** The team of each player at event `e` (team index), from its standings rows. */
function teamOfPlayers(snapshot: Snapshot, e: number): Map<number, number> {
  const st = snapshot.standings;
  const { standingStart } = eventIndex(snapshot);
  const out = new Map<number, number>();
  for (let i = standingStart[e]; i < standingStart[e + 1]; i++) {
    if (st.team[i] >= 0) out.set(st.player[i], st.team[i]);
  }
  return out;
}

/** Each team's members and summed record, by name. */
function teamRows(snapshot: Snapshot, e: number, teamOf: Map<number, number>): TeamRow[] {
  const st = snapshot.standings;
  const rows = new Map<number, TeamRow>();
  const { standingStart } = eventIndex(snapshot);
  for (let i = standingStart[e]; i < standingStart[e + 1]; i++) {
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
        matches: null,
        matchScore: null,
        place: null,
      };
      rows.set(t, row);
    }
    row.members.push(i);
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
        matchScore: null,
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

/**
 * A match's two summed scores with the higher capped: the excess goes to the other team, so the
 * match's total stands (docs/statistics.md#team-events). Null when either sum is unknown.
 */
export function cappedMatchScore(
  score: readonly [number | null, number | null],
  cap: number | null,
): [number, number] | null {
  const [a, b] = score;
  if (a === null || b === null) return null;
  if (cap === null) return [a, b];
  if (a > cap) return [cap, b + a - cap];
  if (b > cap) return [a + b - cap, cap];
  return [a, b];
}

/** A team's value on a team rule's key: total match score, or match wins in halves. */
function teamKey(key: TeamRankKey, row: TeamRow): number {
  if (key === 'score') return row.matchScore ?? 0;
  return 2 * (row.matches?.wins ?? 0) + (row.matches?.draws ?? 0);
}

/** Scores each match by the rule, adds the results to the teams and places them (ties share). */
function scoreByRule(teams: TeamRow[], matches: TeamMatch[], rule: TeamRule, cap: number | null) {
  const byName = new Map(teams.map((t) => [t.name, t]));
  for (const t of teams) {
    t.matches = { wins: 0, draws: 0, losses: 0 };
    t.matchScore = 0;
  }
  for (const m of matches) {
    m.matchScore = cappedMatchScore(m.score, cap);
    if (m.matchScore === null) continue;
    const [x, y] = m.matchScore;
    m.teams.forEach((name, side) => {
      const t = byName.get(name)!;
      const [own, other] = side === 0 ? [x, y] : [y, x];
      t.matchScore! += own;
      if (own > other) t.matches!.wins++;
      else if (own < other) t.matches!.losses++;
      else t.matches!.draws++;
    });
  }
  const compare = (a: TeamRow, b: TeamRow): number => {
    for (const k of rule.rank) {
      const d = teamKey(k, b) - teamKey(k, a);
      if (d !== 0) return d;
    }
    return 0;
  };
  teams.sort((a, b) => compare(a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  teams.forEach((t, i) => {
    t.place = i > 0 && compare(teams[i - 1], t) === 0 ? teams[i - 1].place : i + 1;
  });
}

/**
 * The teams of event `e` when its entries name any, each member a standings row; null when they
 * name none. Ranked by its system's team rule when it declares one
 * (docs/statistics.md#team-events).
 */
export function teamStandings(snapshot: Snapshot, e: number): EventTeams | null {
  const teamOf = teamOfPlayers(snapshot, e);
  if (teamOf.size === 0) return null;
  const teams = teamRows(snapshot, e, teamOf);
  const matches = teamMatches(snapshot, e, teamOf);
  const rule = snapshot.systems[snapshot.events.system[e]].teamRule;
  if (rule === null) return { rule: null, cap: null, teams, matches };
  const declared = snapshot.events.teamScoreCap[e];
  const cap = Number.isNaN(declared) ? null : declared;
  scoreByRule(teams, matches, rule, cap);
  return { rule: rule.name, cap, teams, matches };
}
