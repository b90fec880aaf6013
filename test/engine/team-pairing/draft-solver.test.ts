/**
 * The defender-attacker draft: hand-worked 3- and 4-player drafts, the symmetry of the two
 * teams' views, additive matrices, and optimality of every mix along random drafts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyseDraft } from '../../../src/engine/team-pairing/draft-position.ts';
import type {
  DraftAnalysis,
  DraftStepChoices,
} from '../../../src/engine/team-pairing/draft-position.ts';
import { DraftSolver } from '../../../src/engine/team-pairing/draft-solver.ts';
import { DomainError } from '../../../src/domain/domain-error.ts';

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomMatrix(random: () => number, n: number, total: number): number[][] {
  return Array.from({ length: n }, () =>
    Array.from({ length: n }, () => Math.round(random() * total)),
  );
}

const close = (a: number, b: number, eps = 1e-9) => Math.abs(a - b) <= eps;

/**
 * Row 0 is 10 everywhere; players 1 and 2 score 20 against their namesakes and 0 across. The
 * defenders' game (rows A's defender 0-2, columns B's): [[30, 20, 20], [40, 20, 40],
 * [40, 40, 20]] — e.g. defenders 0 and 0 leave the keeping game [[40, 20], [20, 40]] (matching
 * pennies, 30); defenders 1 and 1 leave [[40, 20], [20, 10]] (saddle 20). Row 0 and column 0 are
 * dominated, the rest is [[20, 40], [40, 20]]: value 30, each team defends with 1 or 2 at 1/2.
 */
const THREE = [
  [10, 10, 10],
  [10, 20, 0],
  [10, 0, 20],
];

describe('the defender-attacker draft', () => {
  it('solves the hand-worked 3-player draft: value 30, defenders 1 and 2 at one half', () => {
    const a = analyseDraft(THREE, 20, []);
    assert.ok(close(a.value, 30));
    assert.equal(a.step?.phase, 'defenders');
    assert.deepEqual(
      a.step?.teamA.map((o) => [o.choice, Number(o.probability.toFixed(12))]),
      [
        [[0], 0],
        [[1], 0.5],
        [[2], 0.5],
      ],
    );
    assert.deepEqual(
      a.step?.teamB.map((o) => Number(o.probability.toFixed(12))),
      [0, 0.5, 0.5],
    );
    // Against B's best reply A's defender 0 is worth 20, as are 1 and 2 played purely.
    assert.deepEqual(
      a.step?.teamA.map((o) => o.value),
      [20, 20, 20],
    );
  });

  it('walks the 3-player draft to its end: defenders 0 and 0 then matching pennies', () => {
    const afterDefenders = analyseDraft(THREE, 20, [{ defenderA: 0, defenderB: 0 }]);
    assert.equal(afterDefenders.step?.phase, 'attackers');
    assert.ok(close(afterDefenders.value, 30));
    const keep = analyseDraft(THREE, 20, [
      { defenderA: 0, defenderB: 0, attackersA: [1, 2], attackersB: [1, 2] },
    ]);
    assert.equal(keep.step?.phase, 'keep');
    assert.deepEqual(
      keep.step?.teamA.map((o) => [o.choice, o.probability]),
      [
        [[1], 0.5],
        [[2], 0.5],
      ],
    );
    const done = analyseDraft(THREE, 20, [
      {
        defenderA: 0,
        defenderB: 0,
        attackersA: [1, 2],
        attackersB: [1, 2],
        keptByA: 1,
        keptByB: 2,
      },
    ]);
    // 0 meets B's 1 (10), B's 0 meets A's 2 (10), the refused A 1 meets B 2 (0).
    assert.equal(done.step, null);
    assert.equal(done.value, 20);
    assert.deepEqual(
      done.pairings.map((p) => [p.a, p.b, p.score, p.how]),
      [
        [0, 1, 10, 'defender-a'],
        [2, 0, 10, 'defender-b'],
        [1, 2, 0, 'refused'],
      ],
    );
  });

  it('solves the hand-worked 4-player draft: one strong cell that team B can always avoid', () => {
    // All 10 but A's 0 against B's 0 (20): B defends with its 0 and keeps whichever attacker is
    // not A's 0, so the pairing never happens and the value is 4 x 10. Any other defender lets A
    // defend with its 0 and force B's 0 either to be offered (and kept) or left last, and still
    // B can leave it against another: 40 either way, so every B defender is worth 40.
    const m = Array.from({ length: 4 }, (_, i) =>
      Array.from({ length: 4 }, (_, j) => (i === 0 && j === 0 ? 20 : 10)),
    );
    const a = analyseDraft(m, 20, []);
    assert.ok(close(a.value, 40));
    // If B sends its 0 as an attacker against A's 0, A's defender keeps it: 50.
    const offered = analyseDraft(m, 20, [
      { defenderA: 0, defenderB: 1, attackersA: [1, 2], attackersB: [0, 2] },
    ]);
    assert.ok(close(offered.value, 50));
    assert.deepEqual(
      offered.step?.teamA.map((o) => [o.choice, o.probability]),
      [
        [[0], 1],
        [[2], 0],
      ],
    );
  });

  it('gives team B the complement of the value when it holds the transposed matrix', () => {
    const random = mulberry32(11);
    for (const n of [3, 4, 5, 6, 7]) {
      const m = randomMatrix(random, n, 20);
      const flipped = m[0].map((_, j) => m.map((row) => 20 - row[j]));
      const a = analyseDraft(m, 20, []).value;
      const b = analyseDraft(flipped, 20, []).value;
      assert.ok(close(a + b, n * 20), `n=${n}: ${a} + ${b}`);
    }
  });

  it('values an additive matrix a[i] + b[j] at Σa + Σb whatever the play', () => {
    const random = mulberry32(3);
    for (const n of [3, 4, 5, 6]) {
      const a = Array.from({ length: n }, () => Math.round(random() * 8));
      const b = Array.from({ length: n }, () => Math.round(random() * 8));
      const m = a.map((x) => b.map((y) => x + y));
      const total = a.reduce((s, x) => s + x, 0) + b.reduce((s, x) => s + x, 0);
      assert.ok(close(analyseDraft(m, 20, []).value, total));
      const played = analyseDraft(m, 20, [
        {
          defenderA: n - 1,
          defenderB: 0,
          attackersA: [0, 1],
          attackersB: [1, 2],
          keptByA: 2,
          keptByB: 0,
        },
      ]);
      assert.ok(close(played.value, total));
    }
  });

  it('plays mixes that no pure deviation of either team improves by more than 1e-9', () => {
    const random = mulberry32(5);
    for (const n of [3, 4, 5, 6, 7]) {
      const m = randomMatrix(random, n, 20);
      const solver = new DraftSolver(Float64Array.from(m.flat()), n);
      const history: DraftStepChoices[] = [];
      for (;;) {
        const a = analyseDraft(m, 20, history, solver);
        if (a.step === null) break;
        checkOptimal(a, solver);
        extend(history, a, random);
      }
    }
  });

  it('refuses an impossible history naming the step and the field', () => {
    const m = randomMatrix(mulberry32(1), 5, 20);
    const refusal = (history: DraftStepChoices[]) => {
      try {
        analyseDraft(m, 20, history);
      } catch (e) {
        assert.ok(e instanceof DomainError);
        return e.fields[0].pointer;
      }
      assert.fail('accepted an impossible history');
    };
    const first = { defenderA: 0, defenderB: 0, attackersA: [1, 2], attackersB: [1, 2] } as const;
    const step0: DraftStepChoices = {
      ...first,
      attackersA: [1, 2],
      attackersB: [1, 2],
      keptByA: 1,
      keptByB: 1,
    };
    assert.equal(refusal([step0, { defenderA: 0, defenderB: 3 }]), '/history/1/defenderA');
    assert.equal(refusal([{ ...step0, keptByA: 3 }]), '/history/0/keptByA');
    assert.equal(refusal([{ ...step0, attackersB: [0, 2] }]), '/history/0/attackersB/0');
    assert.equal(refusal([{ defenderA: 0, defenderB: 0 }, step0]), '/history/1');
    assert.equal(refusal([{ defenderA: 9, defenderB: 0 }]), '/history/0/defenderA');
  });
});

/**
 * Rebuilds the step's game from the solver and checks both mixes: against A's mix every B
 * reply leaves A at least the value, and against B's mix no A option gets more than it.
 */
function checkOptimal(a: DraftAnalysis, solver: DraftSolver): void {
  const step = a.step!;
  const maskA = step.leftA.reduce((m, i) => m | (1 << i), 0);
  const maskB = step.leftB.reduce((m, j) => m | (1 << j), 0);
  const game =
    step.phase === 'defenders'
      ? solver.defenderGame(maskA, maskB)
      : step.phase === 'attackers'
        ? solver.attackerGame(maskA, maskB, step.defenderA!, step.defenderB!)
        : solver.keepGame(
            maskA,
            maskB,
            [step.defenderA!, step.defenderB!],
            step.attackersA as [number, number],
            step.attackersB as [number, number],
          );
  const rows = game.rowOptions.length;
  const cols = game.columnOptions.length;
  const v = a.value - a.paired;
  for (let j = 0; j < cols; j++) {
    let s = 0;
    for (let i = 0; i < rows; i++) s += step.teamA[i].probability * game.payoffs[i * cols + j];
    assert.ok(s >= v - 1e-9, `B's reply ${j} improves on A's mix by ${v - s}`);
  }
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += step.teamB[j].probability * game.payoffs[i * cols + j];
    assert.ok(s <= v + 1e-9, `A's option ${i} improves on B's mix by ${s - v}`);
  }
}

function pick<T extends { probability: number }>(options: T[], random: () => number): T {
  let r = random();
  for (const o of options) {
    r -= o.probability;
    if (r <= 0) return o;
  }
  return options[options.length - 1];
}

function extend(history: DraftStepChoices[], a: DraftAnalysis, random: () => number): void {
  const step = a.step!;
  const choiceA = pick(step.teamA, random).choice;
  const choiceB = pick(step.teamB, random).choice;
  if (step.phase === 'defenders') {
    history.push({ defenderA: choiceA[0], defenderB: choiceB[0] });
  } else if (step.phase === 'attackers') {
    const last = history[history.length - 1];
    last.attackersA = choiceA;
    last.attackersB = choiceB;
  } else {
    const last = history[history.length - 1];
    last.keptByA = choiceA[0];
    last.keptByB = choiceB[0];
  }
}
