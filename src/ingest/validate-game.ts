/**
 * The domain rules of one game (docs/import-formats.md#validation): two sides of distinct
 * players, resolvable factions, scores on the system's scale (and summing to its total when it
 * has one; a system without score rules takes scores as given), results that pair, or results
 * derived from the scores when none are given.
 */
import type { ArmyList, Game, GameSystem, Result, Side } from '../domain/model.ts';
import { itemName } from '../domain/item-name.ts';
import { cleanName } from '../domain/normalize-name.ts';
import { isUnplayed } from '../domain/unplayed-game.ts';
import { RecordError } from './validation-context.ts';
import type { ValidationContext } from './validation-context.ts';

const PAIRS = new Set(['win/loss', 'loss/win', 'draw/draw', 'loss/loss']);

/** An army list with every name cleaned (an item's as one item, itemName) and absent fields explicit. */
export function cleanList(list: ArmyList | null | undefined): ArmyList | null {
  if (!list) return null;
  return {
    points: list.points ?? null,
    units: list.units.map((u) => ({
      name: itemName(u.name),
      category: cleanName(u.category),
      cost: u.cost ?? null,
      models: u.models ?? null,
      options: (u.options ?? []).map((o) => ({
        name: itemName(o.name),
        type: cleanName(o.type),
      })),
    })),
    ...(list.configuration === undefined || list.configuration.length === 0
      ? {}
      : {
          configuration: list.configuration.map((c) => ({
            name: itemName(c.name),
            type: cleanName(c.type),
          })),
        }),
  };
}

function checkSide(ctx: ValidationContext, system: GameSystem, side: Side, i: number): Side {
  const base = `/sides/${i}`;
  const faction = ctx.resolveFaction(system.id, side.faction, `${base}/faction`);
  const subfaction = side.subfaction
    ? ctx.resolveFaction(system.id, side.subfaction, `${base}/subfaction`, faction)
    : null;
  if (side.score !== null && side.score !== undefined) {
    // Without score rules a score is taken as given; it only has to be a number.
    if (!Number.isFinite(side.score))
      throw new RecordError(`${base}/score`, `score ${side.score} is not a finite number`);
    const rules = system.score;
    if (rules && (side.score < rules.min || side.score > rules.max)) {
      throw new RecordError(
        `${base}/score`,
        `score ${side.score} is outside the ${system.id} scale ${rules.min}..${rules.max}`,
      );
    }
  }
  return {
    player: side.player ?? null,
    faction,
    subfaction,
    score: side.score ?? null,
    result: side.result ?? null,
    firstTurn: side.firstTurn ?? null,
    primaryAchieved: side.primaryAchieved ?? null,
    secondary: ctx.scenarioName(system.id, 'secondary', side.secondary),
    secondaryAchieved: side.secondaryAchieved ?? null,
    list: cleanList(side.list),
  };
}

function checkScoreTotal(system: GameSystem, a: Side, b: Side): void {
  const total = system.score?.total;
  if (total !== null && total !== undefined && a.score !== null && b.score !== null) {
    if (Math.abs((a.score ?? 0) + (b.score ?? 0) - total) > 1e-9) {
      throw new RecordError(
        '/sides/1/score',
        `scores ${a.score} + ${b.score} do not sum to ${total} as the ${system.id} rules require`,
      );
    }
  }
}

/**
 * Fills results from scores when neither side has one; otherwise they must pair. A game with
 * neither results nor scores is paired but not played yet (docs/data-model.md#unplayed-games).
 */
function settleResults(a: Side, b: Side): void {
  if (isUnplayed({ sides: [a, b] })) return;
  if ((a.result ?? null) === null && (b.result ?? null) === null) {
    if (a.score === null || b.score === null) {
      throw new RecordError('/sides/0/result', 'no result given and no scores to derive it from');
    }
    const [ra, rb]: [Result, Result] =
      (a.score ?? 0) > (b.score ?? 0)
        ? ['win', 'loss']
        : (a.score ?? 0) < (b.score ?? 0)
          ? ['loss', 'win']
          : ['draw', 'draw'];
    a.result = ra;
    b.result = rb;
  } else if ((a.result ?? null) === null || (b.result ?? null) === null) {
    throw new RecordError(
      `/sides/${a.result ? 1 : 0}/result`,
      'give a result for both sides or for neither (then it follows from the scores)',
    );
  } else if (!PAIRS.has(`${a.result}/${b.result}`)) {
    throw new RecordError(
      '/sides/1/result',
      `results ${a.result}/${b.result} do not pair (win/loss, draw/draw or loss/loss)`,
    );
  }
}

/** A game checked against its system's rules and normalised; throws RecordError on a rule. */
export function checkGame(ctx: ValidationContext, system: GameSystem, g: Game): Game {
  const sides = [checkSide(ctx, system, g.sides[0], 0), checkSide(ctx, system, g.sides[1], 1)] as [
    Side,
    Side,
  ];
  const [a, b] = sides;
  if (a.player && b.player && a.player === b.player) {
    throw new RecordError('/sides/1/player', `both sides are the same player "${a.player}"`);
  }
  checkScoreTotal(system, a, b);
  if (a.firstTurn === true && b.firstTurn === true) {
    throw new RecordError('/sides/1/firstTurn', 'both sides cannot have the first turn');
  }
  settleResults(a, b);
  if (a.player) ctx.referencedPlayers.add(a.player);
  if (b.player) ctx.referencedPlayers.add(b.player);
  // A scenario with no part at all is no scenario: stored and exported alike as none.
  const s =
    g.scenario &&
    Object.values(g.scenario).some(
      (v) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0),
    )
      ? g.scenario
      : null;
  const id = system.id;
  return {
    id: g.id,
    round: g.round ?? null,
    table: g.table ?? null,
    scenario: s
      ? {
          name: ctx.scenarioName(id, 'scenario', s.name),
          map: ctx.scenarioName(id, 'map', s.map),
          deployment: ctx.scenarioName(id, 'deployment', s.deployment),
          primary: ctx.scenarioName(id, 'primary', s.primary),
          secondaries: (s.secondaries ?? []).map((n) => ctx.scenarioName(id, 'secondary', n) ?? n),
        }
      : null,
    sides,
  };
}
