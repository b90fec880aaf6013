/** A growing string dictionary; keys are trimmed and case-folded, the first spelling is kept. */
import type { Dictionary } from './snapshot.ts';

export function foldKey(text: string): string {
  return text.trim().toLowerCase();
}

export class DictionaryBuilder implements Dictionary {
  readonly values: string[] = [];
  readonly index = new Map<string, number>();

  private readonly fold;
  constructor(fold = true) {
    this.fold = fold;
  }

  /** The id of `text`, adding it when new; -1 for null, undefined or blank. */
  add(text: string | null | undefined): number {
    if (text === null || text === undefined) return -1;
    const trimmed = text.trim();
    if (trimmed === '') return -1;
    const key = this.fold ? trimmed.toLowerCase() : trimmed;
    let id = this.index.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(trimmed);
      this.index.set(key, id);
    }
    return id;
  }

  /** The id of `text` or -1, without adding. */
  find(text: string): number {
    const key = this.fold ? text.trim().toLowerCase() : text.trim();
    return this.index.get(key) ?? -1;
  }
}

/** Looks a name up in a built dictionary (case-folded); -1 when absent. */
export function lookup(dict: Dictionary, text: string): number {
  return dict.index.get(foldKey(text)) ?? -1;
}
