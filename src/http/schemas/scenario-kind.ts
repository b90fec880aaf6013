/** The scenario kinds a request may name (DESIGN.md §5 "scenario"). */
import { Type } from 'typebox';
import { SCENARIO_PARTS } from '../../snapshot/snapshot.ts';
import { MAX_ARRAY_ITEMS } from '../plugins/limits.ts';

export const ScenarioKindSchema = Type.Union(
  SCENARIO_PARTS.map((k) => Type.Literal(k)),
  { description: 'scenario | map | deployment | primary | secondary' },
);

export const ScenarioKindsSchema = Type.Array(ScenarioKindSchema, {
  maxItems: MAX_ARRAY_ITEMS,
  description: 'Only these kinds (default all)',
});
