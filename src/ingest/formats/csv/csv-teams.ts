/**
 * The teams a CSV sheet gives its players (docs/import-formats.md#csv): the optional `p1_team`
 * and `p2_team` cells become the event's entries with their teams, as canonical `entries[].team`
 * does, so a team event imported from a sheet has its teams (its page, the Team pairing page).
 * A player plays for one team in an event: a row whose team cell contradicts an earlier row's,
 * names a team without its player, or pairs two players of one team at a team event is rejected
 * alone, and nothing of it is kept.
 */
import type { Entry } from '../../../domain/model.ts';
import { cleanName, nameKey } from '../../../domain/normalize-name.ts';
import { CellError, str } from './csv-cells.ts';
import type { Row } from './csv-cells.ts';

/** The longest team name the canonical model takes (its names' bound). */
const MAX_TEAM_NAME = 300;

/** One player's team in one event, and the faction they played it with. */
interface Member {
  team: string;
  /** The line that first gave the team: the entry's record in a reject. */
  line: number;
  /** The faction of every game of theirs so far, or null once two rows disagree. */
  faction: string | null;
}

/** A side of a row as the teams see it: its player (null: none named) and faction as written. */
export interface TeamSide {
  player: string | null;
  faction: string;
}

/** A row's team cells read and checked, to keep once the whole row is read. */
export type RowTeams = ReadonlyArray<{ player: string; team: string; faction: string }>;

export class SheetTeams {
  private readonly byEvent = new Map<string, Map<string, Member>>();

  private readonly source: string;
  constructor(source: string) {
    this.source = source;
  }

  /**
   * Reads a row's team cells against what earlier rows of `eventId` said; throws a CellError
   * naming the cell when one cannot be right. `singles`: the event is declared singles, where a
   * team is a club and two of its members may meet.
   */
  read(row: Row, eventId: string, sides: readonly TeamSide[], singles: boolean): RowTeams {
    const members = this.byEvent.get(eventId);
    const teams: Array<{ player: string; team: string; faction: string }> = [];
    for (const [i, side] of sides.entries()) {
      const column = i === 0 ? 'p1_team' : 'p2_team';
      const cell = str(row, column);
      if (cell === null) continue;
      const team = cleanName(cell);
      if (team.length > MAX_TEAM_NAME) {
        throw new CellError(column, `a team name is at most ${MAX_TEAM_NAME} characters`);
      }
      if (side.player === null) {
        const p = i === 0 ? 'p1' : 'p2';
        throw new CellError(column, `a team needs its player: give ${p}_id or ${p}_name`);
      }
      const known = members?.get(side.player);
      if (known !== undefined && nameKey(known.team) !== nameKey(team)) {
        throw new CellError(
          column,
          `"${team}" disagrees with line ${known.line} ("${known.team}"): a player plays for one team in an event`,
        );
      }
      teams.push({ player: side.player, team: known?.team ?? team, faction: side.faction });
    }
    if (!singles && teams.length === 2 && nameKey(teams[0].team) === nameKey(teams[1].team)) {
      throw new CellError(
        'p2_team',
        `both players are of team "${teams[0].team}": a team event pairs players of two teams`,
      );
    }
    return teams;
  }

  /** Keeps a row's teams (read by `read`) once the row is read whole. */
  keep(eventId: string, teams: RowTeams, line: number): void {
    if (teams.length === 0) return;
    let members = this.byEvent.get(eventId);
    if (members === undefined) this.byEvent.set(eventId, (members = new Map()));
    for (const { player, team, faction } of teams) {
      const known = members.get(player);
      if (known === undefined) members.set(player, { team, line, faction });
      else if (known.faction !== null && nameKey(known.faction) !== nameKey(faction)) {
        known.faction = null;
      }
    }
  }

  /** Whether any row of `eventId` kept so far gave a team. */
  has(eventId: string): boolean {
    return this.byEvent.has(eventId);
  }

  /**
   * The event's entries so far, each player with their team and, when all their games so far
   * were with one faction, that faction; with where each came from, for a reject. Every batch
   * that writes the event writes them all, since a write replaces its entries.
   */
  entries(eventId: string): {
    entries: Entry[];
    origins: Array<{ source: string; record: string; payload: unknown }>;
  } {
    const entries: Entry[] = [];
    const origins: Array<{ source: string; record: string; payload: unknown }> = [];
    for (const [player, m] of this.byEvent.get(eventId) ?? []) {
      entries.push({ player, team: m.team, ...(m.faction === null ? {} : { faction: m.faction }) });
      origins.push({
        source: this.source,
        record: `line ${m.line} (${player})`,
        payload: { player, team: m.team, faction: m.faction },
      });
    }
    return { entries, origins };
  }
}
