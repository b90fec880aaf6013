/**
 * The one filter bar every page shares: it offers only the values the data holds (GET
 * /api/filters), each with its event count, and writes the choice into the URL.
 */
import type { Params } from '../url-state.ts';
import { listParam } from '../url-state.ts';
import type { Counted, SystemOptions } from '../types.ts';

type Update = (patch: Record<string, string | undefined>) => void;

function CheckList({
  legend,
  values,
  selected,
  onChange,
  label = (v) => v,
}: {
  legend: string;
  values: Counted[];
  selected: string[];
  onChange: (next: string[]) => void;
  label?: (v: string) => string;
}) {
  const summary = selected.length === 0 ? 'all' : selected.map(label).join(', ');
  return (
    <details class="checklist">
      <summary>
        {legend}: <span class="chosen">{summary}</span>
      </summary>
      <fieldset>
        <legend class="sr-only">{legend}</legend>
        {values.map((v) => (
          <label key={v.value}>
            <input
              type="checkbox"
              checked={selected.includes(v.value)}
              onChange={(e) =>
                onChange(
                  (e.currentTarget as HTMLInputElement).checked
                    ? [...selected, v.value]
                    : selected.filter((s) => s !== v.value),
                )
              }
            />{' '}
            {label(v.value)} <span class="count">({v.events} events)</span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}

const TIER_NAMES: Record<string, string> = {
  standard: 'Standard',
  satellite: 'Satellite',
  major: 'Major',
};

export function FilterBar({
  systems,
  system,
  params,
  update,
}: {
  systems: SystemOptions[];
  system: SystemOptions | undefined;
  params: Params;
  update: Update;
}) {
  const set = (key: string) => (e: Event) =>
    update({ [key]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value, page: '' });
  const active = ['from', 'to', 'size', 'format', 'tiers', 'countries', 'rules', 'online'].some(
    (k) => params[k],
  );
  return (
    <form class="filter-bar" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      {systems.length > 1 && (
        <label>
          System
          <select value={system?.id ?? ''} onChange={set('system')}>
            {systems.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        From
        <input
          type="date"
          name="from"
          value={params.from ?? ''}
          min={system?.from ?? undefined}
          max={system?.to ?? undefined}
          onChange={set('from')}
        />
      </label>
      <label>
        To
        <input
          type="date"
          name="to"
          value={params.to ?? ''}
          min={system?.from ?? undefined}
          max={system?.to ?? undefined}
          onChange={set('to')}
        />
      </label>
      <label>
        Event size
        <select name="size" value={params.size ?? ''} onChange={set('size')}>
          <option value="">any size</option>
          {system?.participants.atLeast.map((b) => (
            <option key={b.minParticipants} value={String(b.minParticipants)}>
              {b.minParticipants}+ players ({b.events} events)
            </option>
          ))}
        </select>
      </label>
      <label>
        Format
        <select name="format" value={params.format ?? ''} onChange={set('format')}>
          <option value="">singles and teams</option>
          {system?.formats.map((f) => (
            <option key={f.value} value={f.value}>
              {f.value} ({f.events} events)
            </option>
          ))}
        </select>
      </label>
      <label>
        Online
        <select name="online" value={params.online ?? ''} onChange={set('online')}>
          <option value="">online and in person</option>
          {system?.online.map((o) => (
            <option key={String(o.value)} value={o.value ? 'online' : 'in-person'}>
              {o.value ? 'online' : 'in person'} ({o.events} events)
            </option>
          ))}
        </select>
      </label>
      {system && system.tiers.length > 0 && (
        <CheckList
          legend="Tiers"
          values={system.tiers}
          selected={listParam(params, 'tiers')}
          label={(v) => TIER_NAMES[v] ?? v}
          onChange={(next) => update({ tiers: next.join(','), page: '' })}
        />
      )}
      {system && system.countries.length > 0 && (
        <CheckList
          legend="Countries"
          values={system.countries}
          selected={listParam(params, 'countries')}
          onChange={(next) => update({ countries: next.join(','), page: '' })}
        />
      )}
      {system && system.rulesVersions.length > 0 && (
        <CheckList
          legend="Rules"
          values={system.rulesVersions}
          selected={listParam(params, 'rules')}
          onChange={(next) => update({ rules: next.join(','), page: '' })}
        />
      )}
      {active && (
        <button
          type="button"
          class="link"
          onClick={() =>
            update({
              from: '',
              to: '',
              size: '',
              format: '',
              tiers: '',
              countries: '',
              rules: '',
              online: '',
              page: '',
            })
          }
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
