/** What a common filter selects over a snapshot (docs/architecture.md "One request, end to end"). */

/** The rows and events a filter selects. */
export interface Scope {
  readonly system: number;
  /** Candidate rows [rowStart, rowEnd): the system's rows inside the date window. */
  readonly rowStart: number;
  readonly rowEnd: number;
  /** 1 for every event the filter keeps. */
  readonly eventMask: Uint8Array;
}
