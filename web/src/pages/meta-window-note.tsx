/** The line that says Meta shows "right now", and how to see all data (meta-window.ts). */
import { currentRules, lastYearFrom } from '../meta-window.ts';
import type { SystemOptions } from '../types.ts';
import type { Params } from '../url-state.ts';

export function MetaWindowNote({ system, params }: { system: SystemOptions; params: Params }) {
  const rules = currentRules(system);
  const onRules = rules !== null && params.rules === rules.value && !params.from && !params.to;
  const onYear =
    rules === null &&
    system.to !== null &&
    params.from === lastYearFrom(system.to) &&
    !params.to &&
    !params.rules;
  if (!onRules && !onYear) return null;
  return (
    <p class="note" data-testid="meta-window">
      {onRules
        ? `Right now: the current rules version, ${rules.value} (events from ${rules.from}).`
        : `Right now: the last 12 months of the data (events from ${params.from}; the system records no rules versions).`}{' '}
      Clear it in the filters to see all data.
    </p>
  );
}
