/**
 * The rating methods as an extension point (docs/ratings.md): one suite over every method of
 * the list (src/domain/rating-methods.ts) and its implementation (src/engine/ratings/methods/).
 * A method fails here when docs/ratings.md has no section for it or leaves a parameter out, when
 * its defaults break its own bounds or differ from its implementation's, when the route's schema
 * takes a value out of bounds, and when it claims an expected result it lacks (or the reverse).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { RATING_METHODS } from '../../../src/domain/rating-methods.ts';
import type { RankingMethod } from '../../../src/domain/rating-methods.ts';
import { eventGroups } from '../../../src/engine/ratings/event-groups.ts';
import { RATING_METHOD_IMPLEMENTATIONS } from '../../../src/engine/ratings/methods/index.ts';
import type { RatingMethod } from '../../../src/engine/ratings/methods/rating-method.ts';
import { playerTallies } from '../../../src/engine/ratings/player-tallies.ts';
import { ratedOrder } from '../../../src/engine/ratings/rankings.ts';
import { MethodParamsProperties, MethodSchema } from '../../../src/http/schemas/rating-methods.ts';
import { ev, factsOf, game } from './facts-fixture.ts';

const RATINGS_MD = readFileSync(new URL('../../../docs/ratings.md', import.meta.url), 'utf8');

/** docs/ratings.md's sections by the anchor GitHub gives their heading. */
function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = markdown.split(/^(#{2,3} .*)$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const anchor = parts[i]
      .replace(/^#+ /, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    out.set(anchor, parts[i + 1]);
  }
  return out;
}

// Player 0 beats 1 and 2, and 1 beats 2, at two events of four rounds.
const EVENTS = [
  ev('e1', '2025-01-04', { rounds: 2, participants: 3 }),
  ev('e2', '2025-02-01', { rounds: 2, participants: 3 }),
];
const FACTS = factsOf(3, EVENTS, [
  game('a', 0, 1, 0, 1, 'a'),
  game('b', 0, 2, 0, 2, 'a'),
  game('c', 0, 2, 1, 2, 'a'),
  game('d', 1, 1, 0, 2, 'a'),
  game('e', 1, 2, 0, 1, 'a'),
  game('f', 1, 2, 1, 2, 'a'),
]);

describe('the rating methods', () => {
  const docs = sections(RATINGS_MD);

  it('lists each method once, with an implementation and a value of the route schema', () => {
    const names = RATING_METHODS.map((m) => m.name);
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual(Object.keys(RATING_METHOD_IMPLEMENTATIONS).sort(), [...names].sort());
    for (const name of names) assert.ok(Value.Check(MethodSchema, name), name);
    assert.equal(Value.Check(MethodSchema, 'trueskill'), false);
  });

  for (const spec of RATING_METHODS) {
    const method = RATING_METHOD_IMPLEMENTATIONS[
      spec.name as RankingMethod
    ] as unknown as RatingMethod<Record<string, unknown>>;

    describe(spec.name, () => {
      it('has a section of docs/ratings.md naming each parameter and its default', () => {
        const section = docs.get(spec.docs);
        assert.ok(section !== undefined, `docs/ratings.md has no section #${spec.docs}`);
        for (const [name, p] of Object.entries(spec.parameters)) {
          assert.ok(section.includes(`\`${name}\``), `#${spec.docs} does not name ${name}`);
          assert.ok(section.includes(String(p.default)), `#${spec.docs}: no default of ${name}`);
        }
      });

      it("keeps its defaults within its bounds, and the implementation's defaults are those", () => {
        assert.equal(method.spec, spec);
        assert.deepEqual(Object.keys(method.defaults).sort(), Object.keys(spec.parameters).sort());
        for (const [name, p] of Object.entries(spec.parameters)) {
          assert.equal(method.defaults[name], p.default, name);
          if (p.kind === 'choice') assert.ok(p.values.includes(p.default), name);
          else assert.ok(p.minimum <= p.default && p.default <= p.maximum, name);
        }
      });

      it('takes its defaults in a request, and refuses a value past a bound', () => {
        const schema = MethodParamsProperties[spec.name];
        assert.ok(Value.Check(schema, { ...method.defaults }));
        assert.ok(Value.Check(schema, {}));
        assert.equal(Value.Check(schema, { unknownParameter: 1 }), false);
        for (const [name, p] of Object.entries(spec.parameters)) {
          const past = p.kind === 'choice' ? `${p.default}-not` : p.maximum + 1;
          assert.equal(Value.Check(schema, { [name]: past }), false, name);
          if (p.kind !== 'choice') {
            assert.equal(Value.Check(schema, { [name]: p.minimum - 1 }), false, name);
          }
        }
      });

      it('rates the player who beat everyone above the one who lost every game', () => {
        const order = ratedOrder(FACTS, null);
        const groups = eventGroups(FACTS, order);
        const tallies = playerTallies(FACTS, order, groups, () => true);
        const input = { facts: FACTS, order, factions: null, groups, tallies };
        const { rating } = method.run(input, { ...method.defaults });
        assert.equal(rating.length, FACTS.players);
        assert.ok(rating[0] > rating[2], `${rating[0]} against ${rating[2]}`);
        const value = method.history(FACTS, order, { ...method.defaults }, null, 0, undefined);
        assert.ok(value(1, EVENTS[1].start).rating > value(0, EVENTS[0].start).rating - 1e-9);
      });

      it(
        spec.forecasts
          ? 'forecasts a pairing: even between equals, better for the higher rated'
          : 'forecasts no pairing, as it says',
        () => {
          assert.equal(method.expected !== undefined, spec.forecasts);
          if (method.expected === undefined) return;
          const { pairing, beforeEachGame } = method.expected;
          const equal = pairing({ rating: 1500, rd: 100 }, { rating: 1500, rd: 100 });
          assert.ok(Math.abs(equal - 0.5) < 1e-12, String(equal));
          const better = pairing({ rating: 1700, rd: 100 }, { rating: 1500, rd: 100 });
          assert.ok(better > 0.5 && better < 1, String(better));
          const order = ratedOrder(FACTS, null);
          const { games, forecast } = beforeEachGame(
            FACTS,
            order,
            { ...method.defaults },
            undefined,
          );
          assert.equal(games.length, order.length);
          assert.equal(forecast.length, order.length);
          for (const f of forecast) assert.ok(f > 0 && f < 1, String(f));
        },
      );
    });
  }
});
