/**
 * The {data, meta} envelope of every statistics response (DESIGN.md §5) and the shared pieces
 * of response schemas: intervals, faction references, turn splits, margin bands.
 */
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { ProblemError } from '../../errors/problem.ts';
import type { EngineResult } from '../../engine/common.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { AppContext } from '../app-context.ts';
import { Nullable } from './common-filter.ts';

export const IntervalSchema = Nullable(
  Type.Object(
    {
      low: Type.Number({ description: 'Lower bound' }),
      high: Type.Number({ description: 'Upper bound' }),
    },
    { description: '95% interval; null when it cannot be computed (no games, or under 2 samples)' },
  ),
);

export const RateSchema = (description: string) =>
  Nullable(Type.Number({ minimum: 0, maximum: 1, description }));

export const FactionRefSchema = Type.Object(
  {
    id: Type.String({ description: 'Faction id (stable code)' }),
    name: Type.String({ description: 'Faction name' }),
  },
  { description: 'A faction (army)' },
);

export const TurnStatsSchema = (description: string) =>
  Type.Object(
    {
      games: Type.Number({ description: 'Games counted (mirror rule applied)' }),
      winRate: RateSchema('(wins + draws/2) / games'),
      avgScore: Nullable(Type.Number({ description: 'Mean score over the sides' })),
    },
    { description },
  );

const BandSchema = (description: string) =>
  Type.Object(
    {
      games: Type.Number({ description: 'Decided games whose winner scored in this band' }),
      share: RateSchema('Games in this band over decided games with a known winner score'),
    },
    { description },
  );

export const MarginBandsSchema = Nullable(
  Type.Object(
    {
      decisive: BandSchema('Winner scored in the decisive band'),
      normal: BandSchema('Winner scored in the normal band'),
      close: BandSchema('Winner scored in the close band'),
    },
    {
      description:
        "Decided games by the winner's score band (the game system's rules); null when the system defines none",
    },
  ),
);

/** The response envelope: `data` plus meta {dataVersion, generatedAt, filter, sample, warnings}. */
export function Envelope<D extends TSchema, F extends TSchema>(data: D, filter: F) {
  return Type.Object(
    {
      data,
      meta: Type.Object(
        {
          dataVersion: Type.Integer({ description: 'Data version of the snapshot answered from' }),
          generatedAt: Type.String({
            format: 'date-time',
            description: 'When this answer was computed',
          }),
          filter,
          sample: Type.Object(
            {
              events: Type.Integer({ description: 'Events with at least one counted game' }),
              games: Type.Integer({ description: 'Games counted' }),
            },
            { description: 'The sample the answer rests on' },
          ),
          warnings: Type.Array(Type.String(), {
            description: 'Why an answer may be empty or thin (never errors)',
          }),
        },
        { description: 'About the answer' },
      ),
    },
    { description: 'Statistics answer' },
  );
}

/** The snapshot to answer from, or 503 until the first one has loaded. */
export function requireSnapshot(ctx: AppContext): Snapshot {
  const snapshot = ctx.snapshots?.current() ?? null;
  if (snapshot === null) {
    throw new ProblemError('not-ready', 'the statistics snapshot is still loading; retry shortly', {
      headers: { 'retry-after': '2' },
    });
  }
  return snapshot;
}

/** Wraps an engine result in the envelope. */
export function envelope<D, F>(snapshot: Snapshot, result: EngineResult<D, F>) {
  return {
    data: result.data,
    meta: {
      dataVersion: snapshot.dataVersion,
      generatedAt: new Date().toISOString(),
      filter: result.filter,
      sample: result.sample,
      warnings: result.warnings,
    },
  };
}
