/**
 * List-builder rosters (docs/import-formats.md#list-builder-rosters): BattleScribe `.ros` (XML),
 * `.rosz` (the same, zipped) and New Recruit's JSON export, which is the same roster schema
 * written as JSON. Each becomes one army list: every selection at the top of a force is a unit
 * (its primary category its category, its cost the points of everything under it, its models the
 * model selections under it), and every other selection under it an option whose type is its
 * own primary category; a top-level selection with no model and no points under it is the list's
 * configuration, not a unit. Parsing is fast-xml-parser's and fflate's; the mapping is ours.
 */
import { readFile, stat } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import type { UnzipFileInfo } from 'fflate';
import { decodeUtf8, NotUtf8Error } from '../../input-text.ts';
import { NUL_REASON } from '../../nul-text.ts';
import { RosterError, rosterFromObject } from './roster-list.ts';
import type { ParsedRoster } from './roster-list.ts';

export { RosterError, rosterFromObject } from './roster-list.ts';
export type { ParsedRoster } from './roster-list.ts';

/** A roster's file may be at most this large (a big list is well under 1 MiB). */
export const MAX_ROSTER_BYTES = 16 * 1024 * 1024;
/**
 * A `.rosz`'s roster entry, unzipped, may be at most this large: refused unread when its header
 * says more, and stopped when it inflates past what its header says. Only that entry is inflated,
 * so this bounds the whole archive.
 */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;

export const ROSTER_EXTENSIONS = ['.ros', '.rosz', '.json'] as const;

type Json = Record<string, unknown>;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  // BattleScribe writes repeated children inside a wrapper; a single child must still be a list.
  isArray: (name) =>
    ['force', 'selection', 'cost', 'category', 'categoryLink', 'profile'].includes(name),
  processEntities: true,
});

/**
 * A document type declaration, where entities are declared. fast-xml-parser does not expand a
 * billion laughs, but it leaves `&lol9;` in the text, to be stored as a unit's name.
 */
const DTD = /<!(?:DOCTYPE|ENTITY)/i;

/**
 * A BattleScribe `.ros` document. One with a DOCTYPE (a DTD, entity declarations) is refused:
 * no list builder writes one (docs/import-formats.md#list-builder-rosters).
 */
export function parseRosterXml(source: string): ParsedRoster {
  if (DTD.test(source))
    throw new RosterError(
      'a DOCTYPE or entity declaration, which no list builder writes: refused, entities are not expanded',
    );
  let doc: Json;
  try {
    doc = xml.parse(source, true) as Json;
  } catch (error) {
    throw new RosterError(`not well-formed XML: ${(error as Error).message.replace(/\s+/g, ' ')}`);
  }
  return rosterFromObject(doc.roster);
}

/**
 * Roster text must be UTF-8: names with bytes that are not are refused, never stored as U+FFFD.
 * A NUL byte is refused too, with the reason every format gives it
 * (docs/import-formats.md#nul-characters), rather than a parser's message quoting it.
 */
function utf8(bytes: Uint8Array): string {
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new RosterError(error.message, error.line);
    throw error;
  }
  const nul = text.indexOf('\u0000');
  if (nul !== -1) throw new RosterError(NUL_REASON, lineAt(text, nul));
  return text;
}

/** The 1-based line of position `at` in `text`. */
function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * A `.rosz`: a zip holding one roster (docs/import-formats.md#list-builder-rosters). Only the
 * roster entry is inflated, and no more than `limit` bytes of it, whatever its header says; the
 * other entries are never inflated. The roster entry is the one `.ros` entry (or the zip's only
 * entry); several `.ros` entries are refused, since which one is the list cannot be told.
 */
export function parseRosz(bytes: Uint8Array, limit = MAX_UNZIPPED_BYTES): ParsedRoster {
  const entry = rosterEntry(zipEntries(bytes));
  if (entry.originalSize > limit)
    throw new RosterError(
      `${entry.name} unzips to ${entry.originalSize} bytes; at most ${limit} (refused unread)`,
    );
  return parseRosterXml(utf8(inflateEntry(bytes, entry)));
}

/** The zip's entries as its central directory lists them; nothing is inflated. */
function zipEntries(bytes: Uint8Array): UnzipFileInfo[] {
  const entries: UnzipFileInfo[] = [];
  try {
    unzipSync(bytes, {
      filter: (f) => {
        if (!f.name.endsWith('/')) entries.push(f);
        return false;
      },
    });
  } catch (error) {
    throw new RosterError(`not a zip file: ${(error as Error).message}`);
  }
  return entries;
}

/** The one `.ros` entry, else the only entry. */
function rosterEntry(entries: UnzipFileInfo[]): UnzipFileInfo {
  const ros = entries.filter((f) => f.name.toLowerCase().endsWith('.ros'));
  if (ros.length > 1) {
    const names = ros.slice(0, 5).map((f) => f.name);
    const more = ros.length > names.length ? `, and ${ros.length - names.length} more` : '';
    throw new RosterError(
      `the zip holds ${ros.length} .ros entries (${names.join(', ')}${more}); a .rosz holds one roster`,
    );
  }
  const [entry] = ros.length === 1 ? ros : entries.length === 1 ? entries : [];
  if (entry === undefined)
    throw new RosterError(`no .ros file in the zip (${entries.length} entries)`);
  return entry;
}

/** Compressed bytes handed to the inflater at a time: at most about 16 MiB come out of each. */
const ZIP_CHUNK = 16 * 1024;

/**
 * Inflates one entry with fflate's streaming unzip, counting what comes out: past the size its
 * header says (which the caller has held to the limit) it stops, since a header that understates
 * its entry is how a zip bomb gets past a check made before inflating.
 */
function inflateEntry(bytes: Uint8Array, entry: UnzipFileInfo): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let started = false;
  let done = false;
  let failure: RosterError | null = null;
  const unzip = new Unzip((file) => {
    if (started || file.name !== entry.name) return;
    started = true;
    file.ondata = (error, data, final) => {
      if (failure !== null) return;
      if (error !== null) {
        failure = new RosterError(`${entry.name} cannot be unzipped: ${error.message}`);
        return;
      }
      size += data.length;
      if (size > entry.originalSize) {
        failure = new RosterError(
          `${entry.name} unzips to more than the ${entry.originalSize} bytes its header says (a zip bomb?); refused`,
        );
        file.terminate();
        return;
      }
      chunks.push(data);
      done ||= final;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !done && failure === null; at += ZIP_CHUNK) {
      unzip.push(bytes.subarray(at, at + ZIP_CHUNK), at + ZIP_CHUNK >= bytes.length);
    }
  } catch (error) {
    failure ??= new RosterError(`not a zip file: ${(error as Error).message}`);
  }
  if (failure !== null) throw failure;
  if (!done) throw new RosterError(`${entry.name} ends before its data does (a truncated zip)`);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}

/** New Recruit's JSON export: `{"roster": {…}}`, the roster schema as JSON. */
export function parseNewRecruitJson(source: string): ParsedRoster {
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (error) {
    throw new RosterError(`malformed JSON: ${(error as Error).message}`);
  }
  return rosterFromObject((doc as Json | null)?.roster);
}

/** Reads and parses a roster file by its extension (`.ros`, `.rosz` or New Recruit `.json`). */
export async function readRoster(path: string): Promise<ParsedRoster> {
  const size = (await stat(path)).size;
  if (size > MAX_ROSTER_BYTES)
    throw new RosterError(`${size} bytes; a roster may be at most ${MAX_ROSTER_BYTES}`);
  if (size === 0) throw new RosterError('the file is empty');
  const lower = path.toLowerCase();
  if (lower.endsWith('.rosz')) return parseRosz(await readFile(path));
  const source = utf8(await readFile(path));
  return lower.endsWith('.json') ? parseNewRecruitJson(source) : parseRosterXml(source);
}
