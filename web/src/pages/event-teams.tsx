/**
 * A team event's teams as its source gives them (docs/statistics.md#team-events): each team's
 * members and summed record, and each round's team matches. Under the system's team rule the
 * teams are ranked and each match is scored by it; without one they are plain sums, unplaced.
 */
import type { AnswerOf } from '../api.ts';
import { FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { num } from '../format.ts';

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

function TeamsTable({ teams }: { teams: Teams }) {
  const ranked = teams.rule !== null;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Teams">
      <table data-testid="teams">
        <caption class="sr-only">
          {ranked ? 'Teams, ranked by the team rule' : "Teams, with their members' games summed"}
        </caption>
        <thead>
          <tr>
            {ranked && (
              <th scope="col" class="num" title="Place by the team rule">
                Place
              </th>
            )}
            <th scope="col">Team</th>
            <th scope="col">Members</th>
            {ranked && (
              <th scope="col" class="num" title="Team matches won / drawn / lost">
                Matches
              </th>
            )}
            {ranked && (
              <th scope="col" class="num" title="Total of its team match scores">
                Match score
              </th>
            )}
            <th scope="col" class="num" title="Wins / draws / losses of its members' games">
              Games W/D/L
            </th>
            <th scope="col" class="num" title="Sum of its members' game scores">
              {ranked ? 'Game score' : 'Score (sum)'}
            </th>
          </tr>
        </thead>
        <tbody>
          {teams.teams.map((t) => (
            <tr key={t.name}>
              {ranked && <td class="num">{t.place ?? '–'}</td>}
              <th scope="row">{t.name}</th>
              <td>
                <Members team={t} />
              </td>
              {ranked && (
                <td class="num">
                  {t.matches ? `${t.matches.wins} / ${t.matches.draws} / ${t.matches.losses}` : '–'}
                </td>
              )}
              {ranked && <td class="num">{num(t.matchScore, 0)}</td>}
              <td class="num">{`${t.wins} / ${t.draws} / ${t.losses}`}</td>
              <td class="num">{num(t.score, 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
