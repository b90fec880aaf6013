/**
 * Scores of a set of forecasts (docs/ratings.md#forecast-accuracy): the Brier score (Brier 1950)
 * on the expected score, the log loss, the accuracy on decided games (a forecast of exactly ½
 * counts half, as meta.predictionQuality does) and a reliability table of ten equal-width
 * forecast bins (Murphy & Winkler 1977) with the Wilson interval of each bin's mean outcome.
 */
import { wilson } from '../intervals.ts';
import type { Interval } from '../intervals.ts';

export interface CalibrationBin {
  /** The bin's forecast range [low, high) (the last bin includes 1). */
  from: number;
  to: number;
  games: number;
  meanForecast: number | null;
  meanOutcome: number | null;
  /** 95 % Wilson interval of the mean outcome (outcomes as fractional successes). */
  interval: Interval | null;
}

export interface ModelScores {
  games: number;
  /** Of those, games with a winner (the base of accuracy). */
  decidedGames: number;
  brier: number | null;
  logLoss: number | null;
  accuracy: number | null;
  calibration: CalibrationBin[];
}

const BINS = 10;
/** Keeps a forecast of exactly 0 or 1 from an infinite log loss (as prediction-quality.ts). */
const CLAMP = 1e-12;

/** Adds forecasts one game at a time. */
export class ScoreAccumulator {
  private games = 0;
  private decided = 0;
  private brier = 0;
  private logLoss = 0;
  private correct = 0;
  private readonly binGames = new Float64Array(BINS);
  private readonly binForecast = new Float64Array(BINS);
  private readonly binOutcome = new Float64Array(BINS);

  /** A forecast p of side A's expected score, its outcome y and its result (1, ½ or 0). */
  add(p: number, outcome: number, result: number): void {
    const q = Math.min(1 - CLAMP, Math.max(CLAMP, p));
    this.games += 1;
    this.brier += (p - outcome) ** 2;
    this.logLoss -= outcome * Math.log(q) + (1 - outcome) * Math.log(1 - q);
    if (result !== 0.5) {
      this.decided += 1;
      if (p === 0.5) this.correct += 0.5;
      else if (p > 0.5 === (result === 1)) this.correct += 1;
    }
    const bin = Math.min(BINS - 1, Math.max(0, Math.floor(p * BINS)));
    this.binGames[bin] += 1;
    this.binForecast[bin] += p;
    this.binOutcome[bin] += outcome;
  }

  result(): ModelScores {
    const n = this.games;
    const calibration: CalibrationBin[] = [];
    for (let b = 0; b < BINS; b += 1) {
      const games = this.binGames[b];
      calibration.push({
        from: b / BINS,
        to: (b + 1) / BINS,
        games,
        meanForecast: games > 0 ? this.binForecast[b] / games : null,
        meanOutcome: games > 0 ? this.binOutcome[b] / games : null,
        interval: wilson(this.binOutcome[b], games),
      });
    }
    return {
      games: n,
      decidedGames: this.decided,
      brier: n > 0 ? this.brier / n : null,
      logLoss: n > 0 ? this.logLoss / n : null,
      accuracy: this.decided > 0 ? this.correct / this.decided : null,
      calibration,
    };
  }
}
