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
