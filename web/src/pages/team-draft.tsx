/**
 * The pairing draft walked step by step (POST /api/team-pairing, docs/team-pairing.md#the-draft):
 * at each choice the recommended mix for the captain's team (A), the opponent's best play, the
 * expected team score, and where the captain enters what both teams did, for the next step.
 */
import { useState } from 'preact/hooks';
import { post } from '../api.ts';
import type { AnswerOf, RequestOf } from '../api.ts';
import { Show } from '../components/status.tsx';
import { useApi } from '../use-api.ts';

type Draft = AnswerOf<'/api/team-pairing'>['data'];
type Step = NonNullable<RequestOf<'/api/team-pairing'>['history']>[number];
type Option = NonNullable<Draft['step']>['teamA'][number];
type Player = { id: string; name: string | null; faction: { name: string } };

const PHASES = {
  defenders: 'Both teams reveal a defender',
  attackers: "Each team offers two attackers against the other's defender",
  keep: 'Each defender keeps one of the two attackers offered to it',
} as const;

const short = (p: Player) => p.name ?? p.id;

export function TeamDraft({
  matrix,
  gameTotal,
  rows,
  columns,
}: {
  matrix: number[][];
  gameTotal: number;
  rows: Player[];
  columns: Player[];
}) {
  const [history, setHistory] = useState<Step[]>([]);
  const body = { format: 'defender-attacker' as const, matrix, gameTotal, history };
  const draft = useApi(JSON.stringify(body), (signal) => post('/api/team-pairing', body, signal));
  const n = matrix.length;
  return (
    <section aria-labelledby="draft-h" data-testid="pairing-draft">
      <h3 id="draft-h">The draft</h3>
      <Show result={draft} what="the draft">
        {({ data }) => {
          // Options of team A name its rows, except when its defender keeps one of B's.
          const nameA = (c: Option['choice'], phase: string) =>
            label(c, phase === 'keep' ? columns : rows);
          const nameB = (c: Option['choice'], phase: string) =>
            label(c, phase === 'keep' ? rows : columns);
          return (
            <>
              <dl class="stats">
                <div>
                  <dt>Expected team score, both playing their best</dt>
                  <dd data-testid="draft-value">
                    {data.value.toFixed(1)}{' '}
                    <span class="secondary">
                      of {n * gameTotal} (theirs {(n * gameTotal - data.value).toFixed(1)})
                    </span>
                  </dd>
                </div>
              </dl>
              {data.pairings.length > 0 && (
                <ul class="draft-pairings">
                  {data.pairings.map((p) => (
                    <li key={`${p.a}-${p.b}`}>
                      {short(rows[p.a])} v {short(columns[p.b])}:{' '}
                      <strong>{p.score.toFixed(1)}</strong>
                    </li>
                  ))}
                </ul>
              )}
              {data.step === null ? (
                <p class="note">The draft is done: every player is paired.</p>
              ) : (
                <StepView
                  key={JSON.stringify(data.step)}
                  step={data.step}
                  nameA={nameA}
                  nameB={nameB}
                  onPlayed={(a, b) => setHistory(extend(history, data.step!.phase, a, b))}
                />
              )}
              {history.length > 0 && (
                <button type="button" onClick={() => setHistory(undo(history))}>
                  Undo the last choice
                </button>
              )}
            </>
          );
        }}
      </Show>
    </section>
  );
}

function label(choice: Option['choice'], players: Player[]): string {
  return choice.map((c) => short(players[c])).join(' + ');
}

function StepView({
  step,
  nameA,
  nameB,
  onPlayed,
}: {
  step: NonNullable<Draft['step']>;
  nameA: (c: Option['choice'], phase: string) => string;
  nameB: (c: Option['choice'], phase: string) => string;
  onPlayed: (a: Option['choice'], b: Option['choice']) => void;
}) {
  const byProbability = (options: Option[]) =>
    options.map((o, i) => ({ ...o, i })).sort((x, y) => y.probability - x.probability);
  const [a, setA] = useState(byProbability(step.teamA)[0].i);
  const [b, setB] = useState(byProbability(step.teamB)[0].i);
  const mix = (options: Option[], name: (c: Option['choice'], phase: string) => string) =>
    byProbability(options)
      .filter((o) => o.probability > 0.0005)
      .map((o) => (
        <li key={o.i}>
          {name(o.choice, step.phase)}: <strong>{Math.round(o.probability * 100)}%</strong>
        </li>
      ));
  return (
    <div class="draft-step" data-testid="draft-step">
      <h4>
        Step {step.index + 1}: {PHASES[step.phase]}
      </h4>
      {step.defenderA !== undefined && (
        <p class="secondary" data-testid="draft-so-far">
          Defenders: yours {nameB([step.defenderA], 'keep')}, theirs{' '}
          {nameA([step.defenderB!], 'keep')}
          {step.attackersA !== undefined &&
            `; attackers: yours ${nameA(step.attackersA, 'attackers')}, theirs ${nameB(step.attackersB!, 'attackers')}`}
        </p>
      )}
      <div class="draft-mixes">
        <div>
          <p>Your recommended mix (draw your choice at these odds)</p>
          <ul data-testid="mix-a">{mix(step.teamA, nameA)}</ul>
        </div>
        <div>
          <p>Their best play</p>
          <ul data-testid="mix-b">{mix(step.teamB, nameB)}</ul>
        </div>
      </div>
      <details>
        <summary>Each of your options against their best reply</summary>
        <ul>
          {byProbability(step.teamA).map((o) => (
            <li key={o.i}>
              {nameA(o.choice, step.phase)}: {o.value.toFixed(1)}
            </li>
          ))}
        </ul>
      </details>
      <form class="controls" onSubmit={(e) => e.preventDefault()}>
        <label>
          You played{' '}
          <select
            value={a}
            data-testid="played-a"
            onChange={(e) => setA(Number(e.currentTarget.value))}
          >
            {step.teamA.map((o, i) => (
              <option key={i} value={i}>
                {nameA(o.choice, step.phase)}
              </option>
            ))}
          </select>
        </label>
        <label>
          They played{' '}
          <select
            value={b}
            data-testid="played-b"
            onChange={(e) => setB(Number(e.currentTarget.value))}
          >
            {step.teamB.map((o, i) => (
              <option key={i} value={i}>
                {nameB(o.choice, step.phase)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          data-testid="draft-next"
          onClick={() => onPlayed(step.teamA[a].choice, step.teamB[b].choice)}
        >
          Next step
        </button>
      </form>
    </div>
  );
}

function extend(history: Step[], phase: string, a: Option['choice'], b: Option['choice']): Step[] {
  if (phase === 'defenders') return [...history, { defenderA: a[0], defenderB: b[0] }];
  const last = { ...history[history.length - 1] };
  if (phase === 'attackers') {
    last.attackersA = a;
    last.attackersB = b;
  } else {
    last.keptByA = a[0];
    last.keptByB = b[0];
  }
  return [...history.slice(0, -1), last];
}

/** The history one choice back: kept attackers, then attackers, then the defenders' step. */
function undo(history: Step[]): Step[] {
  const last = { ...history[history.length - 1] };
  if (last.keptByA !== undefined) {
    delete last.keptByA;
    delete last.keptByB;
  } else if (last.attackersA !== undefined) {
    delete last.attackersA;
    delete last.attackersB;
  } else return history.slice(0, -1);
  return [...history.slice(0, -1), last];
}
