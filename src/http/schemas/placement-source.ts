/** Where an event's placings come from, as every event answer says (docs/statistics.md#standings). */
import { Type } from 'typebox';
import { EVENT_FORMATS } from '../../domain/model.ts';
import { Nullable } from './common-filter.ts';

/** Where an event's placings come from (docs/statistics.md#standings). */
export const PlacementSourceProperties = {
  placements: Type.Union(
    ['published', 'derived', 'none'].map((p) => Type.Literal(p)),
    {
      description:
        "Where the event's placings come from: published by the source; derived from its games by its game system's placing rule (placementRule); none (a team event, whose players are never placed one by one, or no published placings and no rule, or an event still running, which has no places until it is over), when no entry has a placement and the event counts in no statistic that needs places",
    },
  ),
  placementRule: Nullable(
    Type.String({
      description:
        'With placements "derived", or "none" while the event is running and its order so far is by the rule: the rule that ranks the games, in words (e.g. "total battle points"); else null',
    }),
  ),
  placementsWithheld: Nullable(
    Type.String({
      description:
        'With placements "none" where the event is still running (games paired and not played yet), or where the system declares a rule but the source holds too few of the games to derive places (fewer than three quarters of the declared entrants with games, or of the games its players would have played): why, in words (e.g. "the source holds 2 games of 4 of 15 entrants"); else null',
    }),
  ),
};

/** An event's format, for answers that name an event by reference. */
export const EventFormatSchema = Type.Union(
  EVENT_FORMATS.map((f) => Type.Literal(f)),
  { description: 'Event format: singles or teams (a team event places no player on their own)' },
);
