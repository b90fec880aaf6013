/**
 * Response schema of a faction's over-representation (docs/statistics.md#over-representation):
 * its share of top-10% finishes, X-0 runs and event wins over its share of entries.
 */
import { Type } from 'typebox';
import { Nullable } from './common-filter.ts';

const PLACED = 'the events in scope whose placings are published or derived by the system rule';

const OverRatioSchema = (outcome: string) =>
  Type.Object(
    {
      count: Type.Number({ description: `The faction's entries with ${outcome} in ${PLACED}` }),
      fieldCount: Type.Number({
        description: `Entries of every faction with ${outcome} in the same events`,
      }),
      share: Nullable(
        Type.Number({ description: 'count / fieldCount; null when fieldCount is 0' }),
      ),
      ratio: Nullable(
        Type.Number({
          minimum: 0,
          description:
            'share / entryShare = (count / entries) / (fieldCount / fieldEntries): 1 = as often as its share of entries predicts, 2 = twice as often; null with reason',
        }),
      ),
      interval: Nullable(
        Type.Object(
          {
            low: Type.Number({ description: 'Lower bound of the 95% interval' }),
            high: Type.Number({ description: 'Upper bound of the 95% interval' }),
          },
          {
            description:
              '95% delta-method interval on log ratio: exp(log ratio ± 1.96·√(1/count − 1/entries − 1/fieldCount − 1/fieldEntries + 2·count/(entries·fieldCount))), the faction being part of the field; with count 0 the low bound is 0 and the high one uses count 0.5; null with ratio',
          },
        ),
      ),
      reason: Nullable(
        Type.String({
          description:
            'Why ratio is null: no event with placings in scope, no entry of the faction there, or no entry of the field with the outcome; null when ratio is given',
        }),
      ),
    },
    { description: `Over-representation in ${outcome}` },
  );

/** A faction's over-representation in a faction-stats row. */
export const OverRepresentationSchema = Type.Object(
  {
    events: Type.Number({
      description: `Events counted: ${PLACED} (team events and events without a rule are left out)`,
    }),
    entries: Type.Number({ description: "The faction's standings entries in those events" }),
    fieldEntries: Type.Number({
      description: 'Standings entries of every faction in those events',
    }),
    entryShare: Nullable(
      Type.Number({ description: 'entries / fieldEntries; null when fieldEntries is 0' }),
    ),
    topTen: OverRatioSchema(
      'a top-10% finish (placement at most ceil(placed entries / 10) of its event)',
    ),
    undefeated: OverRatioSchema('an X-0 run (at least one game played, none lost)'),
    eventWins: OverRatioSchema('an event win (placed 1st, ties sharing it)'),
  },
  {
    description:
      "Over-representation: the faction's share of top-10% finishes, X-0 runs and event wins over its share of entries, each counted over the same events (those with published or rule-derived placings)",
  },
);
