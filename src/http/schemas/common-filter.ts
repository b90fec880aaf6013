/**
 * The schema parts the statistics routes share: the common filter (docs/http-api.md#the-common-filter,
 * declared once in src/domain/common-filter.ts, whose request properties routes spread into their
 * own request objects and whose echo into meta.filter), ids and pages.
 */
import { Type } from 'typebox';
import { MAX_PAGE_SIZE } from '../plugins/limits.ts';

export {
  CommonFilterProperties,
  FormatSchema,
  Id,
  IdArray,
  MAX_STRING,
  NormalisedFilterProperties,
  Nullable,
  TierSchema,
} from '../../domain/common-filter.ts';

/** `page` and `pageSize` of a paged route (docs/http-api.md#limits: page size at most 200). */
export const PageProperties = (rows: string, defaultSize: number) => ({
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'Page number, 1 to 1000000 (default 1)',
    }),
  ),
  pageSize: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      description: `${rows} per page, 1 to ${MAX_PAGE_SIZE} (default ${defaultSize})`,
    }),
  ),
});
