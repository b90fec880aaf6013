/** The radio tabs that choose the ranking method, on the Rankings page and a player's page. */
import type { Method } from '../rating-methods.ts';
import { METHODS } from '../rating-methods.ts';

export function MethodTabs({ method, onPick }: { method: Method; onPick: (m: Method) => void }) {
  return (
    <fieldset class="tabs">
      <legend>Method</legend>
      {METHODS.map(([m, label]) => (
        <label key={m} class="radio">
          <input
            type="radio"
            name="method"
            value={m}
            checked={m === method}
            onChange={() => onPick(m)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
