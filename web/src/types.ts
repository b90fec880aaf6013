/**
 * Names for the parts of Muster's answers the dashboard passes around, all taken from the
 * generated contract (web/src/generated/api-types.ts), none written by hand.
 */
import type { AnswerOf, GetAnswerOf } from './api.ts';

export type FiltersAnswer = GetAnswerOf<'/api/filters'>;
export type SystemOptions = FiltersAnswer['data']['systems'][number];
export type Counted = SystemOptions['formats'][number];
export type HealthAnswer = GetAnswerOf<'/api/health'>;

export type FactionStats = AnswerOf<'/api/faction-stats'>;
export type FactionRow = FactionStats['data']['factions'][number];
export type Matchups = AnswerOf<'/api/army-matchup'>;
export type MatchupCell = Matchups['data']['cells'][number];
export type ItemStats = AnswerOf<'/api/item-use-stats'>;
export type ItemRow = ItemStats['data']['items'][number];
export type Rankings = AnswerOf<'/api/rankings'>;
export type PlayerRow = Rankings['data']['players'][number];
export type Satellites = AnswerOf<'/api/upcoming-satellites'>;
export type Satellite = Satellites['data']['events'][number];
export type ScenarioStats = AnswerOf<'/api/scenario-stats'>;

export type { CommonFilter } from './common-filter.ts';

export interface Interval {
  low: number;
  high: number;
}
export type FactionStrength = AnswerOf<'/api/faction-strength'>;
export type FactionStrengthRow = FactionStrength['data']['factions'][number];
export type ForecastAccuracy = AnswerOf<'/api/forecast-accuracy'>;
export type ModelAccuracy = ForecastAccuracy['data']['models'][number];
