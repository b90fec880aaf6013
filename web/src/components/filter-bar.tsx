/**
 * The one filter bar every page shares: it offers only the values the data holds (GET
 * /api/filters), each with its event count, and writes the choice into the URL. It folds into
 * one line that names the active filters (folded at first on a narrow screen), and each page
 * shows only the filters that change its numbers: Satellites takes the system, its own dates
 * (which reach into the future) and countries; About takes none.
 */
import { useState } from 'preact/hooks';
import type { Params } from '../url-state.ts';
import { listParam } from '../url-state.ts';
import type { Counted, SystemOptions } from '../types.ts';
import type { FilterControl } from '../common-filter.ts';
import { COMMON_FILTER } from '../common-filter.ts';

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
    <details class="checklist" onToggle={keepInView}>
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

/**
 * An opened pop-over that would run past the screen's right edge opens leftwards from its
 * summary's right edge instead (a phone's opens in the bar's flow, styles.css).
 */
function keepInView(e: Event) {
  const details = e.currentTarget as HTMLDetailsElement;
  const box = details.querySelector('fieldset');
  if (!details.open || box === null) return;
  box.classList.remove('flip');
  if (box.getBoundingClientRect().right > document.documentElement.clientWidth)
    box.classList.add('flip');
}

const TIER_NAMES: Record<string, string> = {
  standard: 'Standard',
  satellite: 'Satellite',
  major: 'Major',
};

/** A patch that clears every filter but the system, the dates from the params they are in. */
function cleared([fromKey, toKey]: [string, string]): Record<string, string> {
  const param = (p: string) => (p === 'from' ? fromKey : p === 'to' ? toKey : p);
  return Object.fromEntries(
    COMMON_FILTER.filter((f) => f.control !== 'system').map((f) => [param(f.param), '']),
  );
}

/** The active filters in words, for the folded bar. */
function activeSummary(params: Params, keys: ReadonlySet<FilterControl>, dates: [string, string]) {
  const parts: string[] = [];
  const [from, to] = dates;
  if ((keys.has('dates') || keys.has('futureDates')) && (params[from] || params[to]))
    parts.push(`${params[from] || '…'} to ${params[to] || '…'}`);
  if (keys.has('size') && params.size) parts.push(`${params.size}+ players`);
  if (keys.has('format') && params.format) parts.push(params.format);
  if (keys.has('online') && params.online) parts.push(params.online.replace('-', ' '));
  if (keys.has('tiers') && params.tiers)
    parts.push(
      listParam(params, 'tiers')
        .map((t) => TIER_NAMES[t] ?? t)
        .join(', '),
    );
  if (keys.has('countries') && params.countries)
    parts.push(listParam(params, 'countries').join(', '));
  if (keys.has('rules') && params.rules)
    parts.push(`rules ${listParam(params, 'rules').join(', ')}`);
  return parts;
}

type Setter = (key: string) => (e: Event) => void;

/** From and to: within the data's dates, or from today on for Satellites' own dates. */
function DateFields({
  params,
  system,
  keys: [fromKey, toKey],
  future,
  set,
}: {
  params: Params;
  system: SystemOptions | undefined;
  keys: [string, string];
  future: boolean;
  set: Setter;
}) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <label>
        From
        <input
          type="date"
          name={fromKey}
          value={params[fromKey] ?? ''}
          min={future ? today : (system?.from ?? undefined)}
          max={future ? undefined : (system?.to ?? undefined)}
          onChange={set(fromKey)}
        />
      </label>
      <label>
        To
        <input
          type="date"
          name={toKey}
          value={params[toKey] ?? ''}
          min={future ? today : (system?.from ?? undefined)}
          max={future ? undefined : (system?.to ?? undefined)}
          onChange={set(toKey)}
        />
      </label>
    </>
  );
}

/** Event size, format and online: one choice each, with the events each leaves. */
function ChoiceFields({
  params,
  system,
  keys,
  set,
}: {
  params: Params;
  system: SystemOptions | undefined;
  keys: ReadonlySet<FilterControl>;
  set: Setter;
}) {
  return (
    <>
      {keys.has('size') && (
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
      )}
      {keys.has('format') && (
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
      )}
      {keys.has('online') && (
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
      )}
    </>
  );
}

/**
 * A list filter is offered where it can narrow the data: two or more values, or a choice already
 * in the URL (one choice is every event, so a filter with one would say nothing).
 */
const offered = (values: Counted[], params: Params, key: string) =>
  values.length > 1 || listParam(params, key).length > 0;

/** Tiers, countries and rules versions: any number of each, where the data has a choice. */
function ListFields({
  params,
  system,
  keys,
  update,
}: {
  params: Params;
  system: SystemOptions;
  keys: ReadonlySet<FilterControl>;
  update: Update;
}) {
  return (
    <>
      {keys.has('tiers') && offered(system.tiers, params, 'tiers') && (
        <CheckList
          legend="Tiers"
          values={system.tiers}
          selected={listParam(params, 'tiers')}
          label={(v) => TIER_NAMES[v] ?? v}
          onChange={(next) => update({ tiers: next.join(','), page: '' })}
        />
      )}
      {keys.has('countries') && offered(system.countries, params, 'countries') && (
        <CheckList
          legend="Countries"
          values={system.countries}
          selected={listParam(params, 'countries')}
          onChange={(next) => update({ countries: next.join(','), page: '' })}
        />
      )}
      {keys.has('rules') && offered(system.rulesVersions, params, 'rules') && (
        <CheckList
          legend="Rules"
          values={system.rulesVersions}
          selected={listParam(params, 'rules')}
          onChange={(next) => update({ rules: next.join(','), page: '' })}
        />
      )}
    </>
  );
}

export function FilterBar({
  systems,
  system,
  params,
  update,
  keys,
}: {
  systems: SystemOptions[];
  system: SystemOptions | undefined;
  params: Params;
  update: Update;
  keys: ReadonlySet<FilterControl>;
}) {
  const [open, setOpen] = useState(() => window.matchMedia('(min-width: 701px)').matches);
  const set = (key: string) => (e: Event) =>
    update({ [key]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value, page: '' });
  const future = keys.has('futureDates');
  const [fromKey, toKey] = future ? ['sfrom', 'sto'] : ['from', 'to'];
  const parts = activeSummary(params, keys, [fromKey, toKey]);
  const active = parts.length > 0;
  if (keys.size === 0 || (keys.size === 1 && keys.has('system') && systems.length < 2)) return null;
  return (
    <details
      class="filter-fold"
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        <span class="filter-title">Filters</span>{' '}
        <span class="filter-active" data-testid="active-filters">
          {active ? parts.join(' · ') : 'none: every game'}
        </span>
      </summary>
      <form class="filter-bar" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        {keys.has('system') && systems.length > 1 && (
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
        {(keys.has('dates') || future) && (
          <DateFields
            params={params}
            system={system}
            keys={[fromKey, toKey]}
            future={future}
            set={set}
          />
        )}
        <ChoiceFields params={params} system={system} keys={keys} set={set} />
        {system && <ListFields params={params} system={system} keys={keys} update={update} />}
        {active && (
          <button
            type="button"
            class="link"
            onClick={() => update({ ...cleared([fromKey, toKey]), page: '' })}
          >
            Clear filters
          </button>
        )}
      </form>
    </details>
  );
}
