/**
 * Unicode's explicit directional formatting characters (UAX #9 §2): the embeddings, overrides and
 * isolates that reorder the text after them. A name holding U+202E RIGHT-TO-LEFT OVERRIDE
 * reverses the rest of the line it is written into, so where a name cannot be isolated (a
 * document title, a CSV cell) they are taken out (docs/http-api.md#csv).
 */

/** LRE, RLE, PDF, LRO, RLO (U+202A–U+202E) and LRI, RLI, FSI, PDI (U+2066–U+2069). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text without explicit bidi controls (UAX #9 §2.1–2.4); the implicit marks stay. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
