/** Number formatting shared by the pages. */
export const pct = (v: number | null | undefined, digits = 1): string =>
  v === null || v === undefined ? '–' : `${(v * 100).toFixed(digits)} %`;

export const num = (v: number | null | undefined, digits = 0): string =>
  v === null || v === undefined
    ? '–'
    : v.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const signed = (v: number | null | undefined, digits = 1): string =>
  v === null || v === undefined
    ? '–'
    : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v * 100).toFixed(digits)} pp`;

/**
 * How a player is named: the name when the data has one, else the id, since real exports such
 * as T9A's carry anonymous ids only (docs/data-model.md).
 */
export const playerName = (player: { id: string; name: string | null }): string =>
  player.name?.trim() ? player.name : `player #${player.id}`;
