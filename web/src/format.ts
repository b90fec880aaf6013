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
 * How a player is named: the name when the data has one, else `#` and the shortest prefix of the
 * id that no other player shares (at least 6 characters), since real exports such as T9A's carry
 * anonymous 24-digit ids only (docs/data-model.md#players); links, tooltips and downloads keep
 * the whole id.
 */
export const playerName = (player: {
  id: string;
  shortId?: string;
  name: string | null;
}): string => (player.name?.trim() ? player.name : `#${player.shortId ?? player.id}`);

/**
 * A name written into a string (a caption, an aria-label, a sentence built as text) is isolated
 * as `<bdi>` isolates one in markup; the document title, which cannot isolate, takes the bidi
 * controls out (src/domain/bidi-controls.ts).
 */
export {
  isolateName as isolate,
  stripBidiControls as titleText,
} from '../../src/domain/bidi-controls.ts';
