/**
 * A team event's teams as its source gives them (docs/statistics.md#team-events): each team's
 * members and summed record, and each round's team matches, summed. No team is placed.
 */
import type { AnswerOf } from '../api.ts';
import { FactionLink, PlayerLink } from '../components/entity-link.tsx';
import { num } from '../format.ts';

type Teams = NonNullable<NonNullable<AnswerOf<'/api/events'>['data']['event']>['teams']>;

export function EventTeams({ teams }: { teams: Teams }) {
  return (
    <>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Teams">
        <table data-testid="teams">
          <caption class="sr-only">Teams, with their members' games summed</caption>
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col">Members</th>
              <th scope="col" class="num" title="Wins / draws / losses of its members' games">
                W/D/L
              </th>
              <th scope="col" class="num" title="Sum of its members' game scores">
                Score
              </th>
            </tr>
          </thead>
          <tbody>
            {teams.teams.map((t) => (
              <tr key={t.name}>
                <th scope="row">{t.name}</th>
                <td>
                  {t.members.map((m, i) => (
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
                </td>
                <td class="num">{`${t.wins} / ${t.draws} / ${t.losses}`}</td>
                <td class="num">{num(t.score, 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {teams.matches.length > 0 && (
        <ul class="team-matches" data-testid="team-matches">
          {teams.matches.map((m) => (
            <li key={`${m.round}-${m.teams.join('-')}`}>
              <span class="secondary">{m.round === null ? 'Round ?' : `Round ${m.round}`}: </span>
              {m.teams[0]} {m.wins[0]}–{m.wins[1]} {m.teams[1]}
              {m.draws > 0 && ` (${m.draws} drawn)`}
              <span class="secondary">
                {' '}
                · {m.games} game{m.games === 1 ? '' : 's'}, scores {num(m.score[0], 0)}–
                {num(m.score[1], 0)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
