/**
 * What each column heading means: one sentence, and the section of the methods pages Muster
 * serves itself (/docs/statistics, /docs/ratings: docs/statistics.md and docs/ratings.md
 * rendered at start, so the links work offline). test/http/methods-docs.test.ts checks that
 * every anchor named here exists on the served page.
 */
export interface Definition {
  term: string;
  text: string;
  /** Page and anchor: "statistics#win-rate". */
  doc: `${'statistics' | 'ratings'}#${string}`;
}

export const DEFINITIONS = {
  games: {
    term: 'Games',
    text: 'Completed games in scope; a mirror game counts once for the faction.',
    doc: 'statistics#sides-and-games',
  },
  winRate: {
    term: 'Win rate',
    text: 'Wins plus half the draws, over games; the bar is its 95 % Wilson interval.',
    doc: 'statistics#win-rate',
  },
  avgScore: {
    term: 'Average score',
    text: "The mean of the sides' known game scores, on the system's scale.",
    doc: 'statistics#t-interval',
  },
  metaShare: {
    term: 'Meta share',
    text: "The faction's sides over all sides in scope: how much of the field played it.",
    doc: 'statistics#meta-share',
  },
  firstTurn: {
    term: '1st turn',
    text: 'Win rate of the sides that went first, among games whose turn order is known.',
    doc: 'statistics#first-and-second-turn',
  },
  secondTurn: {
    term: '2nd turn',
    text: 'Win rate of the sides that went second, among games whose turn order is known.',
    doc: 'statistics#first-and-second-turn',
  },
  skill: {
    term: 'Skill-adjusted',
    text: "Win rate minus what the players' ratings predicted: above 0 the army did better than its players.",
    doc: 'statistics#skill',
  },
  difference: {
    term: 'Change',
    text: 'After minus before, in percentage points, with its 95 % Newcombe interval; bold when the interval excludes 0.',
    doc: 'statistics#difference-of-win-rates',
  },
  delta: {
    term: 'Delta',
    text: 'Win rate of lists with the item minus lists without it, with its 95 % interval.',
    doc: 'statistics#with-and-without',
  },
  skillAdjusted: {
    term: 'Skill-adjusted',
    text: "Delta of (actual − expected) score given the players' ratings, with its 95 % interval: does the item help, or do good players take it? Greyed when the interval includes 0.",
    doc: 'statistics#skill-adjusted-delta',
  },
  shrunk: {
    term: 'Shrunk win rate',
    text: "A win rate pulled toward the faction's overall rate, more for fewer games.",
    doc: 'statistics#shrunk-win-rate',
  },
  scenarioFirst: {
    term: '1st-turn win rate',
    text: 'Win rate of the side that went first in the games played on this scenario part.',
    doc: 'statistics#first-and-second-turn',
  },
  achieved: {
    term: 'Achieved',
    text: 'Share of sides that achieved the secondary objective.',
    doc: 'statistics#attacker-and-defender',
  },
  primary: {
    term: 'Won primary',
    text: 'Share of games whose primary objective the attacker (or defender) won.',
    doc: 'statistics#attacker-and-defender',
  },
  rating: {
    term: 'Rating',
    text: 'Glicko-2 ranks by rating − 2·RD, a conservative estimate; Elo and points rank by their value.',
    doc: 'ratings#conservative-order-and-provisional-players',
  },
  rd: {
    term: 'Rating deviation',
    text: "The rating's uncertainty: it shrinks with games and grows with time away.",
    doc: 'ratings#glicko-2',
  },
  strength: {
    term: 'After pilot skill',
    text: "The expected score of an average pilot of the faction against an average opponent with an average army, from one model of skill, faction and matchup, with its 95 % interval. Greyed when the interval spans 50 %, the field's average.",
    doc: 'statistics#faction-strength',
  },
  overExpected: {
    term: 'Performance against expectation',
    text: "What the faction's games scored minus what its pilots' pre-game ratings predicted, per month, with its 95 % interval: above 0 the army did better than its players.",
    doc: 'statistics#performance-against-expectation',
  },
} as const satisfies Record<string, Definition>;

export type DefinitionKey = keyof typeof DEFINITIONS;
