/**
 * Alike players: pairs of ids that may be one person, with the evidence for and against each
 * (docs/statistics.md#duplicate-players). Read-only: an operator merges with the command line
 * (docs/operations.md#player-merges).
 */
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import { PlayerLink } from '../components/entity-link.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { num } from '../format.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

type Pair = AnswerOf<'/api/player-duplicates'>['data']['pairs'][number];

/** What each piece of evidence means, in words. */
const SAYS: Record<string, string> = {
  'same-name': 'the same name',
  'name-case-accents': 'names differing only in case, accents or punctuation',
  'transposed-names': 'the same names in another order',
  diminutive: 'a given name and its short form',
  'one-edit': 'names one typing slip apart',
  initials: 'an initial for a given name',
  'same-country': 'the same country',
  'shared-factions': 'a faction played by both',
  'different-countries': 'different countries',
  'no-shared-faction': 'no faction played by both',
};

const words = (list: readonly string[]) => list.map((e) => SAYS[e] ?? e).join('; ');

const COLUMNS: Array<Column<Pair>> = [
  {
    key: 'players',
    label: 'Players',
    sort: (r) => r.names[0] ?? r.players[0],
    render: (r) => (
      <>
        <PlayerLink player={{ id: r.players[0], name: r.names[0] }} />
        {' · '}
        <PlayerLink player={{ id: r.players[1], name: r.names[1] }} />
      </>
    ),
  },
  {
    key: 'score',
    label: 'Score',
    numeric: true,
    title: 'How likely one person, 0 to 1: the names, then countries and factions',
    sort: (r) => r.score,
    render: (r) => num(r.score, 2),
  },
  { key: 'for', label: 'For', sort: (r) => r.for.join(), render: (r) => words(r.for) },
  {
    key: 'against',
    label: 'Against',
    sort: (r) => r.against.join(),
    render: (r) => (r.against.length === 0 ? '–' : words(r.against)),
  },
];

const MIN_SCORES = ['0.3', '0.4', '0.5', '0.6', '0.7'];

export function AlikePage({ params, update, filter }: PageProps) {
  const minScore = MIN_SCORES.includes(params.minScore ?? '') ? params.minScore! : '0.5';
  const body = { ...(filter.system ? { system: filter.system } : {}), minScore: Number(minScore) };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/player-duplicates', body, signal),
  );
  return (
    <>
      <p class="note">
        Ids whose names are alike and whose games never say they are two people: they never played
        each other, nor took part in one event or in events starting the same day. Merging is an
        operator's act, with <code>muster players merge KEEP OTHER --note "why"</code>, and can be
        undone.
      </p>
      <label>
        Lowest score{' '}
        <select
          value={minScore}
          onChange={(e) => update({ minScore: (e.target as HTMLSelectElement).value })}
        >
          {MIN_SCORES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <Show result={result} what="alike players">
        {({ data, meta }) => {
          if (data.pairs.length === 0)
            return <Empty>No pair of alike players at this score.</Empty>;
          return (
            <>
              <Warnings warnings={meta.warnings} />
              <SortableTable
                caption={`${num(data.pairs.length)} ${data.pairs.length === 1 ? 'pair' : 'pairs'} of ids that may be one person, best first`}
                columns={COLUMNS}
                rows={data.pairs}
                rowKey={(r) => r.players.join(' ')}
                initialSort={{ key: 'score', desc: true }}
                name="alike-players"
              />
            </>
          );
        }}
      </Show>
    </>
  );
}
