/**
 * Schemas of shrunkWinRate (docs/statistics.md#shrunk-win-rate): the row field and the fitted
 * prior reported in meta.shrinkage.
 */
import { Type } from 'typebox';
import { Nullable } from './common-filter.ts';
import { RateSchema } from './envelope.ts';

/** The row field; `toward` names the prior mean. */
export const ShrunkWinRateSchema = (toward: string) =>
  RateSchema(
    `Empirical-Bayes win rate: (wins + draws/2 + m·μ) / (games + m), with μ ${toward} and m = meta.shrinkage.priorStrength, fitted from the spread of all such rows (beta-binomial, method of moments); small samples are pulled toward μ, large ones barely move; equals winRate when m is null; null when games is 0`,
  );

/** meta.shrinkage. */
export const ShrinkageMeta = {
  shrinkage: Type.Optional(
    Type.Object(
      {
        priorStrength: Nullable(
          Type.Number({
            description:
              'm, the strength of the beta prior in games (α + β): how many games of the prior mean a row is blended with; 1000000 when the rows spread no more than chance; null with fewer than two usable rows (then nothing is shrunk)',
          }),
        ),
        cells: Type.Integer({
          description:
            'Rows (cells) the prior was fitted on: those with a game and a prior mean strictly between 0 and 1',
        }),
      },
      { description: 'The prior behind shrunkWinRate, fitted from this answer’s scope' },
    ),
  ),
};
