/**
 * POST /api/item-use-stats: what lists take and how it pays off
 * (docs/statistics.md#item-use-stats).
 */
import { Type } from 'typebox';
import { ITEM_KINDS } from '../../domain/item-kinds.ts';
import { ITEM_SORTS } from '../../engine/item-use-stats.ts';
import { AppliedIds, applied, compareFilter, statsRoute } from './stats-route.ts';
import { ShrinkageMeta, ShrunkWinRateSchema } from '../schemas/shrinkage-meta.ts';
import {
  IntervalKindEcho,
  IntervalKindProperty,
  RateIntervalSchema,
} from '../schemas/interval-kind.ts';
import {
  CompareSampleMeta,
  CompareToEcho,
  CompareToProperty,
  ComparisonSchema,
} from '../schemas/compare-to.ts';
import {
  CommonFilterProperties,
  IdArray,
  MAX_STRING,
  NormalisedFilterProperties,
  Nullable,
  PageProperties,
} from '../schemas/common-filter.ts';
import { DEFAULT_SAMPLE, Envelope, RateSchema } from '../schemas/envelope.ts';

const ItemKindSchema = Type.Union(
  ITEM_KINDS.map((k) => Type.Literal(k)),
  { description: 'A kind of item' },
);

const SortSchema = Type.Union(
  ITEM_SORTS.map((s) => Type.Literal(s)),
  {
    description:
      'Order of items: by lists (default), picks, share, games, winRate, delta (all descending; for delta, the items with deltaEnoughLists first), evidence (how far deltaInterval lies from 0: its bound nearer 0 when it excludes 0, else 0; then games; descending) or name',
  },
);

export const ItemUseStatsBody = Type.Object(
  {
    ...CommonFilterProperties,
    factions: Type.Optional(IdArray('Only lists of these factions', 'A faction id')),
    categories: Type.Optional(
      IdArray(
        'Only items of these kinds, e.g. "unit", "Magic Items", "Path" (case-insensitive)',
        'An item kind',
      ),
    ),
    kinds: Type.Optional(
      Type.Array(ItemKindSchema, {
        uniqueItems: true,
        maxItems: ITEM_KINDS.length,
        description:
          'Only items of these kinds: "unit", "option" (taken in a unit), "configuration" (a list-level choice that is not a unit: a battle formation, a lore); default every kind',
      }),
    ),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_STRING,
        description: 'Only items whose name contains this (case-insensitive)',
      }),
    ),
    minLists: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000000,
        description: 'Leave out items taken by fewer lists, 0 to 1000000 (default 0)',
      }),
    ),
    sort: Type.Optional(SortSchema),
    ...PageProperties('Items', 50),
    compareTo: CompareToProperty,
    interval: IntervalKindProperty,
  },
  {
    additionalProperties: false,
    description: 'Common filter plus item-use-stats options',
    // No system or data-specific ids: the /docs "try it" example works on whatever is served.
    examples: [{ categories: ['unit'], minLists: 5, sort: 'evidence' }],
  },
);

const ItemRowSchema = Type.Object(
  {
    item: Type.Object(
      {
        name: Type.String({ description: 'Item name' }),
        category: Type.String({
          description:
            '"unit" for units, else the option\'s type (e.g. "Magic Items") or the configuration choice\'s (e.g. "Battle Formation")',
        }),
        kind: ItemKindSchema,
      },
      {
        description:
          'The item: a unit, an option whose type names a kind of item, or a configuration choice of the list (docs/statistics.md#item-use-stats)',
      },
    ),
    factions: Type.Array(Type.String({ description: 'A faction id' }), {
      description: 'Ids of the factions (of those selected) whose lists in scope take it, sorted',
    }),
    picks: Type.Number({
      description: 'Copies taken, summed over the lists in scope that take it',
    }),
    lists: Type.Number({ description: 'Lists in scope taking it at least once, mirrors included' }),
    share: Type.Number({ description: 'lists / the lists in scope (data.lists)' }),
    games: Type.Number({
      description: 'Games of the lists taking it, mirror games (a faction against itself) left out',
    }),
    winRate: RateSchema(
      '(wins + draws/2) / games of the lists taking it: a draw counts half; null when games is 0',
    ),
    winRateWithout: RateSchema(
      "(wins + draws/2) / games of the lists in scope of the same factions (this row's factions) that do not take it, mirror games left out; null when they have no game",
    ),
    delta: Nullable(
      Type.Number({ description: 'winRate − winRateWithout; null when either is null' }),
    ),
    deltaInterval: Nullable(
      Type.Object(
        {
          low: Type.Number({ description: 'Lower bound of the 95% interval' }),
          high: Type.Number({ description: 'Upper bound of the 95% interval' }),
        },
        {
          description:
            '95% Newcombe hybrid score interval (Newcombe 1998, method 10) of delta, from the Wilson intervals of winRate and winRateWithout (draws half); an interval excluding 0 says the difference is unlikely to be noise alone; null when either side has no game',
        },
      ),
    ),
    deltaAdjustedPValue: Nullable(
      Type.Number({
        description:
          'Two-sided p-value of delta (pooled two-proportion z-test), adjusted by Benjamini–Hochberg over every item the filter, categories and minLists keep (all pages), for making that many comparisons at once; null when either side has no game',
      }),
    ),
    deltaEnoughLists: Type.Boolean({
      description:
        'At least 20 lists take the item and at least 20 of the same factions do not: the sample a delta needs before it is emphasised or sorted among the largest',
    }),
    deltaEmphasised: Type.Boolean({
      description:
        'The delta may be emphasised: deltaEnoughLists, deltaInterval excluding 0, and deltaAdjustedPValue below 0.05; otherwise it is shown muted',
    }),
    skillAdjustedDelta: Nullable(
      Type.Number({
        description:
          "Does the item help, or do good players take it? Over non-mirror games where both players had a pre-game rating (faction-stats' skill model: Elo expectation on Glicko-2 ratings before the game): (actual − expected score) of the lists with it minus (actual − expected) of the same factions' lists without it; above 0 the lists with it beat their players' ratings by more; null when either side has no such game",
      }),
    ),
    skillAdjustedInterval: Nullable(
      Type.Object(
        {
          low: Type.Number({ description: 'Lower bound of the 95% interval' }),
          high: Type.Number({ description: 'Upper bound of the 95% interval' }),
        },
        {
          description:
            "95% Wald interval of skillAdjustedDelta: ± 1.96 √(v₁/n₁ + v₂/n₂) over the rated sides with (n₁) and without (n₂) the item, v the larger of a(1 − a) and e(1 − e) for that half's mean actual score a and expectation e (a bound of a score's variance); an interval spanning 0 says the skill-adjusted difference may be noise; null when skillAdjustedDelta is",
        },
      ),
    ),
    winRateInterval: RateIntervalSchema(' (clusters: the events of each faction taking the item)'),
    shrunkWinRate: ShrunkWinRateSchema(
      "the win rate of all lists of this row's factions in scope, with and without the item (mirror games left out)",
    ),
    avgScore: Nullable(
      Type.Number({
        description:
          'Mean score of the lists taking it, over those with a known score, mirrors included; null when none',
      }),
    ),
    avgScoreWithout: Nullable(
      Type.Number({
        description:
          'Mean score of the same-faction lists in scope without it, over those with a known score, mirrors included; null when none',
      }),
    ),
    lowSample: Type.Boolean({ description: 'true when games is under 30' }),
    compare: ComparisonSchema(
      "Games of the lists taking it (of this row's factions, mirror games left out)",
    ),
  },
  { description: 'One item; items taken by fewer than minLists lists are left out' },
);

export const ItemUseStatsResponse = Envelope(
  Type.Object(
    {
      lists: Type.Number({
        description:
          'Lists in scope: game sides with a list (one per side per game, mirrors included) of the selected factions (every faction when none)',
      }),
      distinctLists: Type.Integer({
        description:
          'The distinct lists behind `lists`: one per player and event with a list, however many games it was played in (the selected factions; every faction when none)',
      }),
      items: Type.Array(ItemRowSchema, {
        description: 'This page of the matching items, in the order of sort (ties by name)',
      }),
      total: Type.Number({ description: 'Items matching, over all pages' }),
      page: Type.Integer({ description: 'This page number, from 1' }),
      pageSize: Type.Integer({ description: 'Items per page' }),
    },
    { description: 'Items taken by the lists in scope, one page of them' },
  ),
  Type.Object(
    {
      ...NormalisedFilterProperties,
      factions: AppliedIds('faction'),
      categories: Type.Array(Type.String({ description: 'An item kind' }), {
        description: 'Item kinds applied (matched case-insensitively); empty: every kind',
      }),
      kinds: Type.Array(ItemKindSchema, { description: 'Kinds applied; empty: every kind' }),
      search: Nullable(Type.String({ description: 'Name search applied; null: none' })),
      minLists: Type.Integer({ description: 'Minimum lists of an item applied' }),
      sort: SortSchema,
      page: Type.Integer({ description: 'Page number applied' }),
      pageSize: Type.Integer({ description: 'Page size applied' }),
      compareTo: CompareToEcho,
      interval: IntervalKindEcho,
    },
    { description: 'The filter applied, defaults filled in' },
  ),
  DEFAULT_SAMPLE,
  { ...CompareSampleMeta, ...ShrinkageMeta },
);

/** The statistics route POST /api/item-use-stats. */
export const itemUseStatsRoute = statsRoute({
  path: '/api/item-use-stats',
  summary: 'What lists take and how it pays off',
  description:
    'Counted over lists as played (one per game side with a list): picks, lists, share, and the win rate and average score of lists with the item against same-faction lists without it.',
  body: ItemUseStatsBody,
  response: ItemUseStatsResponse,
  filterOf: (body) => body,
  task: 'itemUseStats',
  args: (snapshot, filter, body) => [
    {
      ...filter,
      factions: applied(body.factions),
      categories: applied(body.categories),
      kinds: [...new Set(body.kinds ?? [])].sort(),
      search: body.search ?? null,
      minLists: body.minLists ?? 0,
      sort: body.sort ?? 'lists',
      page: body.page ?? 1,
      pageSize: body.pageSize ?? 50,
      compareTo: compareFilter(snapshot, filter, body.compareTo),
      interval: body.interval ?? 'wilson',
    },
  ],
});
