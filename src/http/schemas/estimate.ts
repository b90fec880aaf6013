/** A model estimate with its 95% interval, {value, low, high} (docs/ratings.md#the-joint-model). */
import { Type } from 'typebox';

export const EstimateSchema = (description: string) =>
  Type.Object(
    {
      value: Type.Number({ minimum: 0, maximum: 1, description: 'The estimate' }),
      low: Type.Number({ minimum: 0, maximum: 1, description: 'Lower bound of the 95% interval' }),
      high: Type.Number({ minimum: 0, maximum: 1, description: 'Upper bound of the 95% interval' }),
    },
    { description },
  );
