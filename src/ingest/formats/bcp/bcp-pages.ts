/**
 * A pairing app's answers as scrapers store them (docs/import-formats.md#pages): each part of an
 * export (event, players, pairings) may be one page `{"data": [...], "nextKey": ...}`, a file of
 * pages (a JSON array of pages, or NDJSON, one page a line), or a folder of page files, read in
 * name order. Pages are unwrapped into the part's records; a players page may split its players
 * into `active` and `dropped`, and a dropped one is marked `dropped: true`. A part that is no
 * page (the plain documents) is taken as it is.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeUtf8, readFileBounded } from '../../input-text.ts';

type Json = Record<string, unknown>;

export const BCP_PARTS = ['event', 'players', 'pairings'] as const;
export type BcpPart = (typeof BCP_PARTS)[number];

/** A part as read: its value (pages unwrapped), and how many pages it came in (null: none). */
export interface PartRead {
  value: unknown;
  pages: number | null;
  /** Records the pages held; for players, how many of them were dropped. */
  records: number;
  dropped: number;
  source: string;
}

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A page: `data` holding the records (an array, or `{active, dropped}`), or `active`/`dropped`. */
function isPage(v: unknown): v is Json {
  if (!isObject(v)) return false;
  if (Array.isArray(v.data)) return true;
  if (isObject(v.data) && (Array.isArray(v.data.active) || Array.isArray(v.data.dropped)))
    return true;
  return Array.isArray(v.active) && ('nextKey' in v || Array.isArray(v.dropped));
}

/** The pages a document is, or null when it is no page (a plain document). */
export function pagesOf(doc: unknown): Json[] | null {
  if (isPage(doc)) return [doc];
  if (Array.isArray(doc) && doc.length > 0 && doc.every(isPage)) return doc as Json[];
  return null;
}

/** A page's records, its dropped players marked so. */
function records(page: Json): { items: unknown[]; dropped: number } {
  if (Array.isArray(page.data)) return { items: page.data, dropped: 0 };
  const split = isObject(page.data) ? page.data : page;
  const active = Array.isArray(split.active) ? split.active : [];
  const dropped = (Array.isArray(split.dropped) ? split.dropped : []).map((p: unknown) =>
    isObject(p) ? { ...p, dropped: true } : p,
  );
  return { items: [...active, ...dropped], dropped: dropped.length };
}

/** Unwraps a part's pages into its value: the records, or for the event part its one event. */
export function unwrapPart(part: BcpPart, pages: Json[], source: string): PartRead {
  const items: unknown[] = [];
  let dropped = 0;
  for (const page of pages) {
    const r = records(page);
    items.push(...r.items);
    dropped += r.dropped;
  }
  if (part === 'event' && items.length !== 1)
    throw new Error(
      `the event's pages hold ${items.length} events; an export folder holds one event`,
    );
  return {
    value: part === 'event' ? items[0] : items,
    pages: pages.length,
    records: items.length,
    dropped,
    source,
  };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new Error('the file is empty');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`malformed JSON: ${(error as Error).message}`);
  }
}

/** NDJSON pages, one a line (blank lines skipped). */
function ndjsonPages(text: string): Json[] {
  const pages: Json[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    let page: unknown;
    try {
      page = JSON.parse(lines[i]);
    } catch (error) {
      throw new Error(`line ${i + 1}: malformed JSON: ${(error as Error).message}`);
    }
    if (!isPage(page)) throw new Error(`line ${i + 1}: not a page ({"data": [...], ...})`);
    pages.push(page);
  }
  return pages;
}

async function readText(path: string, limit: number): Promise<string> {
  return decodeUtf8(await readFileBounded(path, limit, { regularOnly: true }));
}

/** Page files in name order, numbers compared as numbers (`page-2` before `page-10`). */
const byName = new Intl.Collator('en', { numeric: true }).compare;

/** The pages of a folder of page files (`.json` and `.ndjson`). */
async function folderPages(dir: string, limit: number): Promise<Json[]> {
  const names = (await readdir(dir)).filter((n) => /\.(nd)?json$/i.test(n)).sort(byName);
  if (names.length === 0) throw new Error('no .json or .ndjson page file in the folder');
  const pages: Json[] = [];
  for (const name of names) {
    const text = await readText(join(dir, name), limit);
    if (/\.ndjson$/i.test(name)) pages.push(...ndjsonPages(text));
    else {
      const found = pagesOf(parseJson(text));
      if (found === null) throw new Error(`${name}: not a page ({"data": [...], ...})`);
      pages.push(...found);
    }
  }
  return pages;
}

const exists = (path: string) =>
  stat(path).then(
    (s) => s,
    () => null,
  );

/**
 * Reads one part of an export folder: `PART.json` (a page, an array of pages or the plain
 * document), `PART.ndjson` (pages), or a folder `PART/` of page files.
 */
export async function readPart(dir: string, part: BcpPart, limit: number): Promise<PartRead> {
  const folder = join(dir, part);
  if ((await exists(folder))?.isDirectory())
    return unwrapPart(part, await folderPages(folder, limit), folder);
  const json = join(dir, `${part}.json`);
  if ((await exists(json)) === null && (await exists(join(dir, `${part}.ndjson`))) !== null) {
    const path = join(dir, `${part}.ndjson`);
    return unwrapPart(part, ndjsonPages(await readText(path, limit)), path);
  }
  const doc = parseJson(await readText(json, limit));
  const pages = pagesOf(doc);
  if (pages !== null) return unwrapPart(part, pages, json);
  return { value: doc, pages: null, records: 0, dropped: 0, source: json };
}

/** Whether a folder's names make it an export: each part as a file, NDJSON or a folder. */
export function isExportFolder(names: string[]): boolean {
  return ['event.json', 'event.ndjson', 'event'].some((n) => names.includes(n));
}

/** What the pages held, for the import summary ("3 pages, 118 players, 2 dropped"). */
export function pagesNote(parts: PartRead[]): string | null {
  const paged = parts.filter((p) => p.pages !== null);
  if (paged.length === 0) return null;
  const pages = paged.reduce((n, p) => n + (p.pages as number), 0);
  const said = paged.map((p, i) => {
    const part = BCP_PARTS[parts.indexOf(p)] ?? String(i);
    const what =
      part === 'event'
        ? `${p.records} event`
        : part === 'players'
          ? `${p.records} players${p.dropped > 0 ? `, ${p.dropped} dropped` : ''}`
          : `${p.records} pairings`;
    return `${part}: ${p.pages} page(s), ${what}`;
  });
  return `read ${pages} page(s) (${said.join('; ')})`;
}
