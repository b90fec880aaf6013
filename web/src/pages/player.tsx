/**
 * A player's page (docs/ratings.md "A player's page"): rating over time with its uncertainty,
 * results per event with placement, record per faction, best and latest placements, and head
 * to head against a chosen opponent. One rankings request with `player` answers it.
 */
import { post } from '../api.ts';
import { TableCsv } from '../components/download.tsx';
import type { AnswerOf } from '../api.ts';
import { BandChart, dayOf } from '../components/band-chart.tsx';
import { EventLink, FactionLink } from '../components/entity-link.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num, pct, playerName } from '../format.ts';
import { useApi } from '../use-api.ts';
import { entityHref } from '../url-state.ts';
import { MethodTabs } from '../components/method-tabs.tsx';
import type { Method } from '../rating-methods.ts';
import { methodOf } from '../rating-methods.ts';
import { HeadToHead } from './head-to-head.tsx';
import type { PageProps } from './page-props.ts';

export type PlayerPageData = NonNullable<AnswerOf<'/api/rankings'>['data']['player']>;
type HistoryRow = PlayerPageData['history'][number];
type Placement = NonNullable<PlayerPageData['bestPlacement']>;

const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** "3rd of 24", "3rd", or "–". */
function placed(placement: number | null, participants: number | null = null): string {
  if (placement === null) return '–';
  return participants === null ? ordinal(placement) : `${ordinal(placement)} of ${participants}`;
}

function PlacementBox({ label, row }: { label: string; row: Placement | null }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{row ? ordinal(row.placement) : '–'}</dd>
      {row && (
        <dd class="where">
          <EventLink event={row.event} /> <span class="secondary">{row.date}</span>
        </dd>
      )}
    </div>
  );
}

function RatingChart({ history, method }: { history: HistoryRow[]; method: Method }) {
  if (history.length === 0) return <Empty>No rated games in scope: no rating to draw.</Empty>;
  const glicko = method === 'glicko2';
  const points = history.map((h) => ({
    x: dayOf(h.date),
    value: h.rating,
    low: glicko && h.rd !== null ? h.rating - 2 * h.rd : null,
    high: glicko && h.rd !== null ? h.rating + 2 * h.rd : null,
  }));
  const what = method === 'points' ? 'Points' : 'Rating';
  return (
    <BandChart
      points={points}
      title={`${what} after each event`}
      valueLabel={what}
      bandLabel={glicko ? 'Rating ± 2·RD (95 % interval)' : ''}
      format={(v) => num(v, 0)}
    />
  );
}

function ResultsTable({ history, method }: { history: HistoryRow[]; method: Method }) {
  if (history.length === 0) return null;
  return (
    <>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Results per event">
        <table>
          <caption>Results per event, latest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col" class="opt">
                Date
              </th>
              <th scope="col" class="num">
                Placed
              </th>
              <th scope="col" class="num">
                W / D / L
              </th>
              <th scope="col" class="num">
                {method === 'points'
                  ? 'Points after'
                  : method === 'elo'
                    ? 'Rating after'
                    : 'Rating after (± RD)'}
              </th>
            </tr>
          </thead>
          <tbody>
            {[...history].reverse().map((h) => (
              <tr key={h.event.id}>
                <th scope="row">
                  <EventLink event={h.event} />
                </th>
                <td class="opt">{h.date}</td>
                <td class="num">{placed(h.placement, h.participants)}</td>
                <td class="num">
                  {h.wins} / {h.draws} / {h.losses}
                </td>
                <td class="num">
                  {num(h.rating, method === 'points' ? 1 : 0)}
                  {h.rd !== null && <span class="secondary opt"> ± {num(h.rd, 0)}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <TableCsv
        name="results"
        header={[
          'eventId',
          'event',
          'date',
          'placement',
          'participants',
          'wins',
          'draws',
          'losses',
          method === 'points' ? 'points' : 'rating',
          'rd',
        ]}
        rows={() =>
          [...history]
            .reverse()
            .map((h) => [
              h.event.id,
              h.event.name,
              h.date,
              h.placement,
              h.participants,
              h.wins,
              h.draws,
              h.losses,
              h.rating,
              h.rd,
            ])
        }
      />
    </>
  );
}

function FactionsTable({ factions }: { factions: PlayerPageData['factions'] }) {
  if (factions.length === 0) return <Empty>No rated games with a known faction in scope.</Empty>;
  return (
    <>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Record per faction">
        <table>
          <caption>Record per faction played, most games first</caption>
          <thead>
            <tr>
              <th scope="col">Faction</th>
              <th scope="col" class="num">
                Games
              </th>
              <th scope="col" class="num">
                W / D / L
              </th>
              <th scope="col" class="num">
                Win rate
              </th>
            </tr>
          </thead>
          <tbody>
            {factions.map((f) => (
              <tr key={f.faction.id}>
                <th scope="row">
                  <FactionLink faction={f.faction} />
                </th>
                <td class="num">{f.games}</td>
                <td class="num">
                  {f.wins} / {f.draws} / {f.losses}
                </td>
                <td class="num">{pct(f.games ? (f.wins + f.draws / 2) / f.games : null)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <TableCsv
        name="factions"
        header={['factionId', 'faction', 'games', 'wins', 'draws', 'losses', 'winRate']}
        rows={() =>
          factions.map((f) => [
            f.faction.id,
            f.faction.name,
            f.games,
            f.wins,
            f.draws,
            f.losses,
            f.games ? (f.wins + f.draws / 2) / f.games : null,
          ])
        }
      />
    </>
  );
}

/** What a player page says when the id is not a player of the data: plain words, a way on. */
export function UnknownPlayer({ id, rankings }: { id: string; rankings: string }) {
  return (
    <div class="status empty" role="status" data-testid="unknown-player">
      <p>
        There is no player “{id}” in Muster’s data for this game system. The link may be mistyped,
        or the player may be in another system.
      </p>
      <p>
        <a href={rankings}>Find a player in the rankings</a>
      </p>
    </div>
  );
}

export function PlayerPage({ params, update, filter }: PageProps) {
  const id = params.player ?? '';
  const method = methodOf(params);
  // Ranked as the Rankings page ranks by default: a provisional player has no rank (null).
  const body = { ...filter, method, player: id, pageSize: 1 };
  const result = useApi(id ? JSON.stringify(body) : null, (signal) =>
    post('/api/rankings', body, signal),
  );
  const rankings = entityHref(params, 'rankings', '');
  if (!id) {
    return (
      <>
        <h1>Player</h1>
        <Empty>No player chosen. Open one from the rankings.</Empty>
      </>
    );
  }
  if (result.state === 'error' && result.error.status === 404) {
    return (
      <>
        <h1>Player not found</h1>
        <UnknownPlayer id={id} rankings={rankings} />
      </>
    );
  }
  const page = result.state === 'error' ? undefined : result.data?.data.player;
  const name = page ? playerName(page.player) : `player #${id}`;
  document.title = `${name} · Muster`;
  return (
    <>
      <h1 class={page?.player.name?.trim() ? undefined : 'player-id'}>{name}</h1>
      <Show result={result} what="the player">
        {({ data, meta }) => {
          const p = data.player!;
          const row = p.row;
          return (
            <>
              <Warnings warnings={meta.warnings} />
              <MethodTabs method={method} onPick={(m) => update({ method: m })} />
              <dl class="stats" aria-label="The player at a glance">
                <div>
                  <dt>
                    {method === 'points' ? 'Points' : method === 'elo' ? 'Rating' : 'Rating ± RD'}
                  </dt>
                  <dd data-testid="player-rating">
                    {row ? num(row.rating, method === 'points' ? 1 : 0) : '–'}
                    {row?.rd != null && <span class="secondary"> ± {num(row.rd, 0)}</span>}
                  </dd>
                </div>
                <div>
                  <dt>Rank</dt>
                  <dd>{row?.rank ?? (row?.provisional ? 'provisional' : '–')}</dd>
                </div>
                <div>
                  <dt>Games (W / D / L)</dt>
                  <dd>{row ? `${row.games} (${row.wins} / ${row.draws} / ${row.losses})` : '–'}</dd>
                </div>
                <PlacementBox label="Best placement" row={p.bestPlacement} />
                <PlacementBox label="Latest placement" row={p.latestPlacement} />
              </dl>
              {row?.provisional && (
                <p class="note">
                  Provisional: the rating deviation is above 110 (too few recent games), so the
                  rankings leave this player out unless asked.
                </p>
              )}
              <section aria-labelledby="rating-h">
                <h2 id="rating-h">{method === 'points' ? 'Points' : 'Rating'} over time</h2>
                <RatingChart history={p.history} method={method} />
              </section>
              <section aria-labelledby="results-h">
                <h2 id="results-h">Results per event</h2>
                <ResultsTable history={p.history} method={method} />
              </section>
              <section aria-labelledby="factions-h">
                <h2 id="factions-h">Record per faction</h2>
                <FactionsTable factions={p.factions} />
              </section>
              <HeadToHead
                params={params}
                update={update}
                filter={filter}
                method={method}
                player={p.player}
              />
            </>
          );
        }}
      </Show>
    </>
  );
}
