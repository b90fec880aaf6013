/** What every page gets from the frame. */
import type { CommonFilter, FiltersAnswer, SystemOptions } from '../types.ts';
import type { Params } from '../url-state.ts';

export interface PageProps {
  params: Params;
  update: (patch: Record<string, string | undefined>, replace?: boolean) => void;
  /** The chosen system (undefined only when the store is empty). */
  system: SystemOptions | undefined;
  /** The common filter of every statistics request. */
  filter: CommonFilter;
  filters: FiltersAnswer;
}
