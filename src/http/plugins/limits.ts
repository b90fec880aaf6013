/**
 * Request limits shared by the app, the schemas' documentation and the tests
 * (docs/http-api.md#limits).
 */

/** Largest accepted request body; larger is 413. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** Largest array in a request body; enforced by each route's schema (maxItems). */
export { MAX_ARRAY_ITEMS } from '../../domain/common-filter.ts';

/** Largest page size; enforced by each route's schema (maximum). */
export const MAX_PAGE_SIZE = 200;
