/**
 * POST /api/player-duplicates: pairs of players who may be one person under two ids, with the
 * evidence for and against each (docs/statistics.md#duplicate-players). Read-only: merging is an
 * operator's act, made with `muster players merge` (docs/operations.md#player-merges).
 */
import { Type } from 'typebox';
import { NAME_EVIDENCE } from '../../engine/players/name-keys.ts';
import { DEFAULT_MIN_SCORE, MAX_DUPLICATE_PAIRS } from '../../engine/players/player-duplicates.ts';
import { Id, Nullable } from '../schemas/common-filter.ts';
import { Envelope } from '../schemas/envelope.ts';
import { statsRoute } from './stats-route.ts';

export const PlayerDuplicatesBody = Type.Object(
  {
    system: Type.Optional(
      Id(
        'Game system id (e.g. "t9a"); defaults to the only system; required when there are several',
      ),
    ),
    minScore: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: `Leave out pairs scored below this, 0 to 1 (default ${DEFAULT_MIN_SCORE})`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Which system, and the lowest score listed',
    examples: [{ minScore: 0.4 }],
  },
);

const FOR = [...NAME_EVIDENCE, 'same-country', 'shared-factions'] as const;
const AGAINST = ['different-countries', 'no-shared-faction'] as const;

const PairSchema = Type.Object(
  {
    players: Type.Array(Type.String({ description: 'A player id' }), {
      minItems: 2,
      maxItems: 2,
      description: 'The two player ids, in id order',
    }),
    names: Type.Array(Nullable(Type.String({ description: 'The name; null when unknown' })), {
      minItems: 2,
      maxItems: 2,
      description: "The two players' names, in the order of players",
    }),
    score: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'How likely one person, 0 to 1: the names\u2019 likeness plus what else speaks for, less what speaks against (docs/statistics.md#duplicate-players)',
    }),
    for: Type.Array(Type.Union(FOR.map((v) => Type.Literal(v))), {
      description:
        'Evidence for, the names\u2019 likeness first: same-name, name-case-accents, transposed-names, diminutive, one-edit or initials; then same-country, shared-factions',
    }),
    against: Type.Array(Type.Union(AGAINST.map((v) => Type.Literal(v))), {
      description:
        'Evidence against that play does not rule out (pairs who played each other or were at one event, or at events starting the same day, are never listed)',
    }),
  },
  { description: 'One candidate pair' },
);

export const PlayerDuplicatesResponse = Envelope(
  Type.Object(
    {
      pairs: Type.Array(PairSchema, {
        description: `Candidate pairs, best first (score, then ids); at most ${MAX_DUPLICATE_PAIRS}`,
      }),
    },
    { description: 'Players who may be one person under two ids' },
  ),
  Type.Object(
    {
      system: Type.String({ description: 'The game system applied' }),
      minScore: Type.Number({ description: 'The lowest score listed' }),
    },
    { description: 'The request applied, defaults filled in' },
  ),
  {
    events: "Events of the system's games",
    games: "The system's games",
  },
);

/** The statistics route POST /api/player-duplicates. */
export const playerDuplicatesRoute = statsRoute({
  path: '/api/player-duplicates',
  summary: 'Players who may be one person under two ids',
  description:
    'Pairs of players whose names are alike (case, accents, word order, initials, diminutives, one typing slip), scored with their countries and factions; pairs that played each other or took part in one event, or in events starting the same day, are never listed. Merges are made with the command line.',
  body: PlayerDuplicatesBody,
  response: PlayerDuplicatesResponse,
  filterOf: (body) => ({ system: body.system }),
  task: 'playerDuplicates',
  args: (_snapshot, filter, body) => [
    { system: filter.system, minScore: body.minScore ?? DEFAULT_MIN_SCORE },
  ],
});
