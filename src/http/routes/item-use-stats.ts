/** POST /api/item-use-stats: what lists take and how it pays off (DESIGN.md §5). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { normaliseCommonFilter } from '../../engine/filter.ts';
import { ITEM_SORTS, itemUseStats } from '../../engine/item-use-stats.ts';
import { MAX_PAGE_SIZE } from '../plugins/limits.ts';
import type { AppContext } from '../app-context.ts';
import {
  CommonFilterProperties,
  IdArray,
  MAX_STRING,
  NormalisedFilterProperties,
  Nullable,
} from '../schemas/common-filter.ts';
import {
  Envelope,
  IntervalSchema,
  RateSchema,
  envelope,
  requireSnapshot,
} from '../schemas/envelope.ts';

const SortSchema = Type.Union(
  ITEM_SORTS.map((s) => Type.Literal(s)),
  {
    description:
      'Order of items: by lists (default), picks, share, games, winRate, delta (all descending) or name',
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
        description: 'Leave out items taken by fewer lists (default 0)',
      }),
    ),
    sort: Type.Optional(SortSchema),
    page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100000, description: 'Page number, from 1 (default 1)' }),
    ),
    pageSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        description: `Items per page (default 50, at most ${MAX_PAGE_SIZE})`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Common filter plus item-use-stats options',
    examples: [
      { system: 't9a', factions: ['DE'], categories: ['Magic Items'], minLists: 10, sort: 'delta' },
    ],
  },
);

const ItemRowSchema = Type.Object({
  item: Type.Object(
    {
      name: Type.String({ description: 'Item name' }),
      category: Type.String({
        description: '"unit" for units, else the option type (e.g. "Magic Items")',
      }),
    },
    { description: 'The item' },
  ),
  factions: Type.Array(Type.String(), { description: 'Factions whose lists take it' }),
  picks: Type.Number({ description: 'Copies taken over all lists' }),
  lists: Type.Number({ description: 'Lists taking it' }),
  share: Type.Number({ description: 'Lists taking it over lists in scope' }),
  games: Type.Number({ description: 'Non-mirror games of lists taking it' }),
  winRate: RateSchema('Win rate of lists taking it (draws half)'),
  winRateWithout: RateSchema('Win rate of same-faction lists in scope without it'),
  delta: Nullable(Type.Number({ description: 'winRate - winRateWithout' })),
  winRateInterval: IntervalSchema,
  avgScore: Nullable(
    Type.Number({ description: 'Mean score of lists taking it (mirrors included)' }),
  ),
  avgScoreWithout: Nullable(
    Type.Number({ description: 'Mean score of same-faction lists without it' }),
  ),
  lowSample: Type.Boolean({ description: 'Fewer than 30 games' }),
});

export const ItemUseStatsResponse = Envelope(
  Type.Object({
    lists: Type.Number({ description: 'Lists in scope (one per game side with a list)' }),
    items: Type.Array(ItemRowSchema),
    total: Type.Number({ description: 'Items matching, over all pages' }),
    page: Type.Integer(),
    pageSize: Type.Integer(),
  }),
  Type.Object({
    ...NormalisedFilterProperties,
    factions: Type.Array(Type.String()),
    categories: Type.Array(Type.String()),
    search: Nullable(Type.String()),
    minLists: Type.Integer(),
    sort: SortSchema,
    page: Type.Integer(),
    pageSize: Type.Integer(),
  }),
);

type Body = Static<typeof ItemUseStatsBody>;

/** Registers POST /api/item-use-stats. */
export function registerItemUseStatsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/item-use-stats',
    {
      schema: {
        summary: 'What lists take and how it pays off',
        description:
          'Counted over lists as played (one per game side with a list): picks, lists, share, and the win rate and average score of lists with the item against same-faction lists without it.',
        tags: ['statistics'],
        body: ItemUseStatsBody,
        response: { 200: ItemUseStatsResponse },
      },
    },
    async (request) => {
      const body = request.body as Body;
      const snapshot = requireSnapshot(ctx);
      const filter = normaliseCommonFilter(snapshot, body);
      const result = itemUseStats(snapshot, {
        ...filter,
        factions: [...new Set(body.factions ?? [])],
        categories: [...new Set(body.categories ?? [])],
        search: body.search ?? null,
        minLists: body.minLists ?? 0,
        sort: body.sort ?? 'lists',
        page: body.page ?? 1,
        pageSize: body.pageSize ?? 50,
      });
      return envelope(snapshot, result);
    },
  );
}
