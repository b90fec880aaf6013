/**
 * The methodology switches of the win-rate routes (docs/statistics.md#methodology-switches),
 * declared once: how a draw counts (`draws`) and whether mirror games count (`mirrors`), so that
 * the figures of the best-known sites can be reproduced from the same data. Routes spread the
 * request properties into their bodies and the echo into meta.filter; the engine reads the rules.
 */
import { Type } from 'typebox';

/** How a draw counts in a win rate: half a win (default), or left out of both counts. */
export const DRAW_RULES = ['half', 'exclude'] as const;
export type DrawRule = (typeof DRAW_RULES)[number];

/** Whether mirror games (a faction against itself) count in a win rate. */
export const MIRROR_RULES = ['exclude', 'include'] as const;
export type MirrorRule = (typeof MIRROR_RULES)[number];

/** The switches with every default filled in, as the engine reads and meta.filter echoes them. */
export interface Methodology {
  draws: DrawRule;
  mirrors: MirrorRule;
}

const DRAWS_TEXT =
  'How a draw counts in winRate and its interval: "half" (default) counts it half a win, (wins + draws/2) / games; "exclude" leaves drawn games out of numerator and denominator, wins / (wins + losses), with the Wilson interval on those games';

const mirrorsText = (mirrorDefault: MirrorRule, include: string) =>
  `Whether mirror games (a faction against itself) count: "exclude"${mirrorDefault === 'exclude' ? ' (default)' : ''} leaves them out; "include"${mirrorDefault === 'include' ? ' (default)' : ''} ${include}`;

const drawRules = (description: string) =>
  Type.Union([Type.Literal('half'), Type.Literal('exclude')], { description });
const mirrorRules = (description: string) =>
  Type.Union([Type.Literal('exclude'), Type.Literal('include')], { description });

/** The request properties of the switches; `include` says what counting a mirror means there. */
export const MethodologyProperties = (mirrorDefault: MirrorRule, include: string) => ({
  draws: Type.Optional(drawRules(DRAWS_TEXT)),
  mirrors: Type.Optional(mirrorRules(mirrorsText(mirrorDefault, include))),
});

/** meta.filter's echo of the switches, defaults filled in. */
export const MethodologyEcho = {
  draws: drawRules('How a draw counted in win rates'),
  mirrors: mirrorRules('Whether mirror games counted'),
};

/** The switches of a request body with the route's defaults filled in. */
export function methodologyOf(
  body: { draws?: DrawRule; mirrors?: MirrorRule },
  mirrorDefault: MirrorRule,
): Methodology {
  return { draws: body.draws ?? 'half', mirrors: body.mirrors ?? mirrorDefault };
}
