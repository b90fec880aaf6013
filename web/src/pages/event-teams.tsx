/**
 * A team event's teams as its source gives them (docs/statistics.md#team-events): each team's
 * members and summed record, and each round's team matches. Under the system's team rule the
 * teams are ranked and each match is scored by it; without one they are plain sums, unplaced.
 */
import type { AnswerOf } from '../api.ts';
import { FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { num } from '../format.ts';
import { SortableTable } from '../components/sortable-table.tsx';
import type { Column } from '../components/sortable-table.tsx';

type Teams = NonNullable<NonNullable<AnswerOf<'/api/events'>['data']['event']>['teams']>;
type Team = Teams['teams'][number];
type Match = Teams['matches'][number];

function Members({ team }: { team: Team }) {
  return (
    <>
      {team.members.map((m, i) => (
        <span key={m.player.id}>
          {i > 0 && ', '}
          <PlayerLink player={m.player} />
          {m.faction && (
            <span class="secondary">
              {' '}
              (<FactionLink faction={m.faction} />)
            </span>
          )}
        </span>
      ))}
    </>
  );
}

/** What ranks the teams, or that nothing does, in words. */
function TeamsNote({ teams }: { teams: Teams }) {
  if (teams.rule === null) {
    return (
      <p class="secondary" data-testid="teams-note">
        No team scoring rule is declared for this game system: the teams are not ranked, and the
        scores below are plain sums of their members' games.
      </p>
    );
  }
  return (
    <p class="secondary" data-testid="teams-note">
      Teams ranked by the game system's team rule, {teams.rule}: each team match scores the sum of
      its games
      {teams.cap === null ? '' : `, a team's score capped at ${num(teams.cap, 0)}`}.
    </p>
  );
}

const wdl = (r: { wins: number; draws: number; losses: number }) =>
  `${r.wins} / ${r.draws} / ${r.losses}`;

/** The columns of a ranked table; without a rule, Place, Matches and Match score are left out. */
const TEAM_COLUMNS: Array<Column<Team> & { rankedOnly?: true }> = [
  {
    key: 'place',
    label: 'Place',
    title: 'Place by the team rule',
    numeric: true,
    rankedOnly: true,
    sort: (t) => t.place,
    render: (t) => t.place ?? '–',
  },
  { key: 'team', label: 'Team', sort: (t) => t.name, render: (t) => t.name },
  {
    key: 'members',
    label: 'Members',
    render: (t) => <Members team={t} />,
    csv: [['members', (t) => t.members.map((m) => m.player.id).join(' ')]],
  },
  {
    key: 'matches',
    label: 'Matches',
    title: 'Team matches won / drawn / lost',
    numeric: true,
    nowrap: true,
    rankedOnly: true,
    render: (t) => (t.matches ? wdl(t.matches) : '–'),
    csv: [
      ['matchesWon', (t) => t.matches?.wins ?? null],
      ['matchesDrawn', (t) => t.matches?.draws ?? null],
      ['matchesLost', (t) => t.matches?.losses ?? null],
    ],
  },
  {
    key: 'matchScore',
    label: 'Match score',
    title: 'Total of its team match scores',
    numeric: true,
    rankedOnly: true,
    sort: (t) => t.matchScore,
    render: (t) => num(t.matchScore, 0),
  },
  {
    key: 'games',
    label: 'Games W/D/L',
    title: "Wins / draws / losses of its members' games",
    numeric: true,
    nowrap: true,
    render: wdl,
    csv: [
      ['wins', (t) => t.wins],
      ['draws', (t) => t.draws],
      ['losses', (t) => t.losses],
    ],
  },
  {
    key: 'score',
    label: 'Score (sum)',
    title: "Sum of its members' game scores",
    numeric: true,
    sort: (t) => t.score,
    render: (t) => num(t.score, 0),
  },
];

function TeamsTable({ teams }: { teams: Teams }) {
  const ranked = teams.rule !== null;
  return (
    <SortableTable
      caption={
        ranked ? 'Teams, ranked by the team rule' : "Teams, with their members' games summed"
      }
      captionHidden
      label="Teams"
      columns={TEAM_COLUMNS.filter((c) => ranked || !c.rankedOnly)}
      rows={teams.teams}
      rowKey={(t) => t.name}
      rowHeader="team"
      name="teams"
      testId="teams"
    />
  );
}

function MatchLine({ m }: { m: Match }) {
  const round = (
    <span class="secondary">{m.round === null ? 'Round ?' : `Round ${m.round}`}: </span>
  );
  const games = `${m.games} game${m.games === 1 ? '' : 's'}`;
  if (m.matchScore !== null) {
    return (
      <li>
        {round}
        {m.teams[0]} {num(m.matchScore[0], 0)}–{num(m.matchScore[1], 0)} {m.teams[1]}
        <span class="secondary">
          {' '}
          · {games} won {m.wins[0]}–{m.wins[1]}
          {m.draws > 0 && `, ${m.draws} drawn`}, summed {num(m.score[0], 0)}–{num(m.score[1], 0)}
        </span>
      </li>
    );
  }
  return (
    <li>
      {round}
      {m.teams[0]} {m.wins[0]}–{m.wins[1]} {m.teams[1]}
      {m.draws > 0 && ` (${m.draws} drawn)`}
      <span class="secondary">
        {' '}
        · {games}, scores summed {num(m.score[0], 0)}–{num(m.score[1], 0)}
      </span>
    </li>
  );
}

export function EventTeams({ teams }: { teams: Teams }) {
  return (
    <>
      <TeamsNote teams={teams} />
      <TeamsTable teams={teams} />
      {teams.matches.length > 0 && (
        <ul class="team-matches" data-testid="team-matches">
          {teams.matches.map((m) => (
            <MatchLine key={`${m.round}-${m.teams.join('-')}`} m={m} />
          ))}
        </ul>
      )}
    </>
  );
}
