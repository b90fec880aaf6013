/**
 * The per-game and per-side columns of a snapshot being built, in the order the games arrive
 * (src/snapshot/reorder-games.ts puts them in snapshot order at the end), and the appending of
 * a part another builder read (snapshot-part.ts) through maps from its codes to this builder's.
 */
import { TypedColumn } from '../domain/typed-column.ts';
import type { ArrivalColumns } from './reorder-games.ts';
import { remapCodes } from './snapshot-part.ts';

const int32s = () => new TypedColumn(Int32Array);
const int8s = () => new TypedColumn(Int8Array);

/** From a part's codes to the merging builder's, by kind of code (-1 stays -1). */
export interface PartMaps {
  readonly events: Int32Array;
  readonly factions: Int32Array;
  /** Scenario, map, deployment, primary. */
  readonly parts: readonly Int32Array[];
  readonly secondaries: Int32Array;
  readonly players: Int32Array;
  readonly lists: Int32Array;
}

export class ArrivalBuilder {
  // Per game; a game's secondaries are gSecondaryIds[gSecondaryStart[g]...].
  readonly gEvent = int32s();
  readonly gRound = int32s();
  readonly gParts = [int32s(), int32s(), int32s(), int32s()];
  readonly gSecondaryStart = int32s();
  readonly gSecondaryIds = int32s();
  // A game's store id is the UTF-8 bytes gIdBytes[gIdStart[g]...].
  readonly gIdStart = int32s();
  readonly gIdBytes = new TypedColumn(Uint8Array);
  // Per side (2 per game).
  readonly sFaction = int32s();
  readonly sSubfaction = int32s();
  readonly sPlayer = int32s();
  readonly sScore = new TypedColumn(Float64Array);
  readonly sResult = int8s();
  readonly sFirst = int8s();
  readonly sPrimary = int8s();
  readonly sSecondary = int32s();
  readonly sSecondaryAchieved = int8s();
  readonly sList = int32s();

  get games(): number {
    return this.gEvent.length;
  }

  /** The columns as they arrived (each may hold spare room past its length). */
  columns(): ArrivalColumns {
    return {
      gEvent: this.gEvent.data,
      gRound: this.gRound.data,
      gParts: this.gParts.map((c) => c.data),
      gSecondaryStart: this.gSecondaryStart.data,
      gSecondaryIds: this.gSecondaryIds.data,
      nSecondaryIds: this.gSecondaryIds.length,
      gIdStart: this.gIdStart.data,
      gIdBytes: this.gIdBytes.data,
      nIdBytes: this.gIdBytes.length,
      sFaction: this.sFaction.data,
      sSubfaction: this.sSubfaction.data,
      sPlayer: this.sPlayer.data,
      sScore: this.sScore.data,
      sResult: this.sResult.data,
      sFirst: this.sFirst.data,
      sPrimary: this.sPrimary.data,
      sSecondary: this.sSecondary.data,
      sSecondaryAchieved: this.sSecondaryAchieved.data,
      sList: this.sList.data,
    };
  }

  /** Adds the next game's store id as UTF-8 bytes: an ASCII id is pushed as it is, without a copy. */
  pushGameId(id: string): void {
    this.gIdStart.push(this.gIdBytes.length);
    for (let i = 0; i < id.length; i++) {
      const code = id.charCodeAt(i);
      if (code >= 0x80) {
        for (const byte of Buffer.from(id.slice(i), 'utf8')) this.gIdBytes.push(byte);
        return;
      }
      this.gIdBytes.push(code);
    }
  }

  /**
   * Appends `games` games of another builder's columns `c`, their codes through `maps`; a game
   * whose event maps to -1 is left out.
   */
  append(c: ArrivalColumns, games: number, maps: PartMaps): void {
    const sides = 2 * games;
    const gParts = c.gParts.map((column, p) => remapCodes(column, games, maps.parts[p]));
    const gSecondaryIds = remapCodes(c.gSecondaryIds, c.nSecondaryIds, maps.secondaries);
    const sFaction = remapCodes(c.sFaction, sides, maps.factions);
    const sSubfaction = remapCodes(c.sSubfaction, sides, maps.factions);
    const sPlayer = remapCodes(c.sPlayer, sides, maps.players);
    const sSecondary = remapCodes(c.sSecondary, sides, maps.secondaries);
    const sList = remapCodes(c.sList, sides, maps.lists);
    for (let g = 0; g < games; g++) {
      const event = maps.events[c.gEvent[g]];
      if (event < 0) continue;
      this.gEvent.push(event);
      this.gRound.push(c.gRound[g]);
      for (let p = 0; p < 4; p++) this.gParts[p].push(gParts[p][g]);
      this.gSecondaryStart.push(this.gSecondaryIds.length);
      const end = g + 1 < games ? c.gSecondaryStart[g + 1] : c.nSecondaryIds;
      for (let i = c.gSecondaryStart[g]; i < end; i++) this.gSecondaryIds.push(gSecondaryIds[i]);
      this.gIdStart.push(this.gIdBytes.length);
      const idEnd = g + 1 < games ? c.gIdStart[g + 1] : c.nIdBytes;
      for (let i = c.gIdStart[g]; i < idEnd; i++) this.gIdBytes.push(c.gIdBytes[i]);
      for (let r = 2 * g; r < 2 * g + 2; r++) {
        this.sFaction.push(sFaction[r]);
        this.sSubfaction.push(sSubfaction[r]);
        this.sPlayer.push(sPlayer[r]);
        this.sScore.push(c.sScore[r]);
        this.sResult.push(c.sResult[r]);
        this.sFirst.push(c.sFirst[r]);
        this.sPrimary.push(c.sPrimary[r]);
        this.sSecondary.push(sSecondary[r]);
        this.sSecondaryAchieved.push(c.sSecondaryAchieved[r]);
        this.sList.push(sList[r]);
      }
    }
  }
}
