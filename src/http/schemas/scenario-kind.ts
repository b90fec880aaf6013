/** The scenario kinds a request may name (docs/statistics.md#scenario). */
import { SCENARIO_KINDS } from '../../domain/model.ts';
import { Type } from 'typebox';
import { MAX_ARRAY_ITEMS } from '../plugins/limits.ts';

export const ScenarioKindSchema = Type.Union(
  SCENARIO_KINDS.map((k) => Type.Literal(k)),
  { description: 'scenario | map | deployment | primary | secondary' },
);

export const ScenarioKindsSchema = Type.Array(ScenarioKindSchema, {
  maxItems: MAX_ARRAY_ITEMS,
  description: 'Only these kinds (default all)',
});
