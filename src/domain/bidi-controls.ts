/**
 * Unicode's explicit directional formatting characters (UAX #9 §2): the embeddings, overrides and
 * isolates that reorder the text after them. A name holding U+202E RIGHT-TO-LEFT OVERRIDE
 * reverses the rest of the line it is written into, so a name written into a sentence is
 * isolated, and where it cannot be (a document title, a CSV cell) they are taken out
 * (docs/http-api.md#csv).
 */

/** LRE, RLE, PDF, LRO, RLO (U+202A–U+202E) and LRI, RLI, FSI, PDI (U+2066–U+2069). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text without explicit bidi controls (UAX #9 §2.1–2.4); the implicit marks stay. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/**
 * A name written into a sentence, between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE
 * (UAX #9 §2.7), the plain-text form of HTML's `<bdi>`: a right-to-left name, or one holding an
 * override, cannot reorder the words around it.
 */
export function isolateName(name: string): string {
  return `\u2068${name}\u2069`;
}
