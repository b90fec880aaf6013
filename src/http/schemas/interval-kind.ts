/**
 * The `interval` option of the rate-bearing routes (docs/statistics.md#event-clustered-interval):
 * Wilson (default) or event-clustered, its echo in meta.filter, and the interval field it shapes.
 */
import { Type } from 'typebox';
import { WilsonIntervalSchema } from './envelope.ts';

const IntervalKindSchema = Type.Union([Type.Literal('wilson'), Type.Literal('event-clustered')], {
  description:
    'How winRateInterval is computed: "wilson" (default; every game independent) or "event-clustered" (each event a sampling unit: games of one event share players, meta and scoring quirks, so a row carried by few events gets a wider interval)',
});

/** The request property. */
export const IntervalKindProperty = Type.Optional(IntervalKindSchema);

/** meta.filter.interval. */
export const IntervalKindEcho = IntervalKindSchema;

/** A row's winRateInterval under either kind; `mirror` adds what a mirror cell does. */
export const RateIntervalSchema = (mirror = '') =>
  WilsonIntervalSchema(
    `95% interval of winRate with wins + draws/2 as the successes out of games (with draws "exclude": wins out of games − draws, Wilson only), clamped to [0, 1]: the Wilson score interval by default; with interval "event-clustered", the Wilson interval on the effective sample size games / deff · (z / t)² (Korn & Graubard 1998), deff ≥ 1 the cluster-robust variance over events divided by the binomial one and t Student's with events − 1 degrees of freedom, [0, 1] when all the games come from one event${mirror}; null when games is 0`,
  );
