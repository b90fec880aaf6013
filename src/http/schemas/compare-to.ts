/**
 * Schemas of `compareTo` (docs/statistics.md#compareto): the second common filter a request may
 * send, its echo in meta.filter, its sample in meta, and the comparison each row then carries.
 */
import { Type } from 'typebox';
import { CommonFilterProperties, NormalisedFilterProperties, Nullable } from './common-filter.ts';
import { RateSchema } from './envelope.ts';

const { system: _system, ...WindowProperties } = CommonFilterProperties;
const { system: _echoSystem, ...WindowEcho } = NormalisedFilterProperties;

/** The request property: a common filter without system (the request's system applies). */
export const CompareToProperty = Type.Optional(
  Type.Object(WindowProperties, {
    additionalProperties: false,
    description:
      'A second common filter (same system; a field left out is not inherited from the request) whose figures each row then carries beside its own, with the difference in win rate and its Newcombe interval; typically another date window or rules version, e.g. {"rulesVersions": ["2.1"]} against "rulesVersions": ["2.2"]',
    examples: [{ rulesVersions: ['2.1'] }],
  }),
);

/** meta.filter.compareTo. */
export const CompareToEcho = Nullable(
  Type.Object(WindowEcho, {
    description: 'The compareTo filter applied, defaults filled in; null when none was given',
  }),
);

/** meta.compareSample. */
export const CompareSampleMeta = {
  compareSample: Type.Optional(
    Type.Object(
      {
        events: Type.Integer({
          description: 'Events in the compareTo scope with a completed game',
        }),
        games: Type.Integer({ description: 'Completed games in the compareTo scope' }),
      },
      { description: 'The sample of the compareTo filter; only when compareTo is given' },
    ),
  ),
};

const DiffInterval = Nullable(
  Type.Object(
    {
      low: Type.Number({ description: 'Lower bound of the 95% interval' }),
      high: Type.Number({ description: 'Upper bound of the 95% interval' }),
    },
    {
      description:
        "95% Newcombe hybrid score interval (Newcombe 1998, method 10) of difference, from both rates' Wilson intervals with wins + draws/2 as successes; null when either window has no game",
    },
  ),
);

/** The comparison a row carries when compareTo is given (`what` names the row's games). */
export const ComparisonSchema = (what: string) =>
  Type.Optional(
    Type.Object(
      {
        games: Type.Number({ description: `${what} in the compareTo scope` }),
        wins: Type.Number({ description: 'Of those, games won' }),
        draws: Type.Number({ description: 'Of those, games drawn' }),
        losses: Type.Number({ description: 'Of those, games lost' }),
        winRate: RateSchema(
          '(wins + draws/2) / games in the compareTo scope; null when games is 0',
        ),
        winRateInterval: Nullable(
          Type.Object(
            {
              low: Type.Number({ description: 'Lower bound of the 95% interval' }),
              high: Type.Number({ description: 'Upper bound of the 95% interval' }),
            },
            {
              description:
                '95% Wilson score interval of the compareTo winRate; null when games is 0',
            },
          ),
        ),
        difference: Nullable(
          Type.Number({
            description:
              "This row's winRate minus the compareTo winRate (above 0: better in the request's scope); null when either is null",
          }),
        ),
        differenceInterval: DiffInterval,
        excludesZero: Nullable(
          Type.Boolean({
            description:
              'true when differenceInterval lies wholly above or below 0 (the change is unlikely to be noise alone); null when there is no interval',
          }),
        ),
        pValue: Nullable(
          Type.Number({
            description:
              'Two-sided p-value of the difference (pooled two-proportion z-test on the counted wins); null when either scope has no games',
          }),
        ),
        adjustedPValue: Nullable(
          Type.Number({
            description:
              'pValue adjusted by Benjamini–Hochberg over every comparison of this answer (each matchup once), for making that many at once; null when pValue is',
          }),
        ),
        enoughGames: Type.Boolean({
          description:
            'Both scopes hold at least 20 games of the row, the sample a change needs before it is emphasised',
        }),
        emphasised: Type.Boolean({
          description:
            'The change may be emphasised (bold, "changed most"): enoughGames, excludesZero, and adjustedPValue below 0.05; otherwise it is listed muted',
        }),
      },
      {
        description:
          'The same row in the compareTo scope and the difference; only when compareTo is given',
      },
    ),
  );
