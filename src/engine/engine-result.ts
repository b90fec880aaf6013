/**
 * What every engine function answers besides its data (docs/http-api.md#the-envelope): the
 * filter applied, the sample counted, warnings, and the parts of meta some answers add.
 */
import type { PredictionQuality } from './ratings/prediction-quality.ts';
import type { CommonFilter } from './filter.ts';
import type { ShrinkageMeta } from './shrinkage.ts';

/** Rows under this many games carry lowSample: true (docs/statistics.md#mingames-and-lowsample). */
export const LOW_SAMPLE_GAMES = 30;

export interface Sample {
  events: number;
  games: number;
}

/** What every engine function returns besides its data: the sample and any warnings. */
export interface EngineResult<TData, TFilter = CommonFilter> {
  data: TData;
  filter: TFilter;
  sample: Sample;
  warnings: string[];
  /** Route-specific parts of meta, present only when the request asks for them. */
  meta?: ExtraMeta;
}

/** meta fields some answers add (docs/statistics.md#compareto, #shrunk-win-rate). */
export interface ExtraMeta {
  /** The sample of the compareTo filter, when one is given. */
  compareSample?: Sample;
  /** The fitted prior of shrunkWinRate. */
  shrinkage?: ShrinkageMeta;
  /** How well the rating method predicted the games in scope (docs/ratings.md). */
  predictionQuality?: PredictionQuality | null;
}

export const EMPTY_WARNING = 'no games match the filter';
