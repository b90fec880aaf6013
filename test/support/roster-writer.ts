/**
 * Writes an army list as a list builder would save it (docs/import-formats.md#list-builder-rosters):
 * a BattleScribe `.ros` (XML), the same zipped as `.rosz`, and New Recruit's JSON export. Built
 * from the roster schema's public field names, for the round-trip tests; every unit is a `unit`
 * selection with its category as primary category and its cost in `pts`, its models one `model`
 * selection, its options `upgrade` selections whose primary category is the option's type.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { Zip, zipSync } from 'fflate';
import type { ZipInputFile } from 'fflate';
import type { ArmyList } from '../../src/domain/model.ts';

interface RosterOptions {
  name?: string;
  system?: string;
  catalogue?: string;
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

let ids = 0;
const id = () => `id-${(++ids).toString(16).padStart(4, '0')}`;

interface Node {
  name: string;
  type: 'unit' | 'model' | 'upgrade';
  number: number;
  pts: number | null;
  category: string | null;
  selections: Node[];
}

function nodes(list: ArmyList): Node[] {
  return list.units.map((u) => ({
    name: u.name,
    type: 'unit',
    number: 1,
    pts: u.cost ?? null,
    category: u.category,
    selections: [
      ...(u.models === null || u.models === undefined
        ? []
        : [
            {
              name: u.name,
              type: 'model' as const,
              number: u.models,
              pts: null,
              category: null,
              selections: [],
            },
          ]),
      ...(u.options ?? []).map((o) => ({
        name: o.name,
        type: 'upgrade' as const,
        number: 1,
        pts: null,
        category: o.type,
        selections: [],
      })),
    ],
  }));
}

function xmlNode(n: Node, indent: string): string {
  const inner = [
    n.pts === null
      ? ''
      : `${indent}  <costs><cost name="pts" typeId="points" value="${n.pts}"/></costs>\n`,
    n.category === null
      ? ''
      : `${indent}  <categories><category id="${id()}" entryId="${id()}" name="${escape(n.category)}" primary="true"/></categories>\n`,
    n.selections.length === 0
      ? ''
      : `${indent}  <selections>\n${n.selections.map((s) => xmlNode(s, `${indent}    `)).join('')}${indent}  </selections>\n`,
  ].join('');
  return `${indent}<selection id="${id()}" entryId="${id()}" name="${escape(n.name)}" number="${n.number}" type="${n.type}">\n${inner}${indent}</selection>\n`;
}

/** The list as a BattleScribe `.ros` document. */
export function rosterXml(list: ArmyList, options: RosterOptions = {}): string {
  const total =
    list.points === null || list.points === undefined
      ? ''
      : `  <costs><cost name="pts" typeId="points" value="${list.points}"/></costs>\n`;
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<roster id="${id()}" name="${escape(options.name ?? 'List')}" battleScribeVersion="2.03" gameSystemId="${id()}" gameSystemName="${escape(options.system ?? 'Test of War')}" xmlns="http://www.battlescribe.net/schema/rosterSchema">\n` +
    total +
    '  <forces>\n' +
    `    <force id="${id()}" name="Army" entryId="${id()}" catalogueId="${id()}" catalogueName="${escape(options.catalogue ?? 'Army')}">\n` +
    '      <selections>\n' +
    nodes(list)
      .map((n) => xmlNode(n, '        '))
      .join('') +
    '      </selections>\n' +
    '    </force>\n' +
    '  </forces>\n' +
    '</roster>\n'
  );
}

/** The list as a `.rosz`: the `.ros` zipped. */
export function rosterZip(list: ArmyList, options: RosterOptions = {}): Uint8Array {
  return zipSync({ 'roster.ros': new TextEncoder().encode(rosterXml(list, options)) });
}

function jsonNode(n: Node): Record<string, unknown> {
  return {
    id: id(),
    entryId: id(),
    name: n.name,
    number: n.number,
    type: n.type,
    ...(n.pts === null ? {} : { costs: [{ name: 'pts', typeId: 'points', value: n.pts }] }),
    ...(n.category === null
      ? {}
      : { categories: [{ id: id(), entryId: id(), name: n.category, primary: true }] }),
    ...(n.selections.length === 0 ? {} : { selections: n.selections.map(jsonNode) }),
  };
}

/** The list as New Recruit's JSON export. */
export function rosterJson(list: ArmyList, options: RosterOptions = {}): string {
  return JSON.stringify({
    roster: {
      id: id(),
      name: options.name ?? 'List',
      gameSystemName: options.system ?? 'Test of War',
      ...(list.points === null || list.points === undefined
        ? {}
        : { costs: [{ name: 'pts', typeId: 'points', value: list.points }] }),
      forces: [
        {
          id: id(),
          name: 'Army',
          catalogueName: options.catalogue ?? 'Army',
          selections: nodes(list).map(jsonNode),
        },
      ],
    },
  });
}

/** One entry of a hand-made archive: its bytes, or `zeros` bytes of zeros. */
export interface ArchiveEntry {
  name: string;
  data?: Uint8Array;
  zeros?: number;
  /** The uncompressed size its headers give, when they are to lie (a zip bomb's trick). */
  claims?: number;
}

/** Deflated runs of zeros by size: forty 63 MiB entries cost one deflate. */
const deflatedZeros = new Map<number, { deflated: Buffer; crc: number }>();

function deflated(entry: ArchiveEntry): { deflated: Buffer; crc: number; size: number } {
  if (entry.data !== undefined)
    return {
      deflated: deflateRawSync(entry.data),
      crc: crc32(entry.data),
      size: entry.data.length,
    };
  const size = entry.zeros ?? 0;
  let zeros = deflatedZeros.get(size);
  if (zeros === undefined) {
    const raw = Buffer.alloc(size);
    zeros = { deflated: deflateRawSync(raw, { level: 9 }), crc: crc32(raw) };
    deflatedZeros.set(size, zeros);
  }
  return { ...zeros, size };
}

/**
 * A zip of `entries` as fflate's streaming Zip writes it, from data deflated here, so that an
 * archive of gigabytes unzipped is a few megabytes to make: forty entries of 63 MiB of zeros
 * are 2.5 MB. A hostile `.rosz` for the archive tests, and for measuring an import of one.
 */
export function rosterArchive(entries: ArchiveEntry[]): Buffer {
  const out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error !== null) throw error;
    out.push(chunk);
  });
  for (const entry of entries) {
    const d = deflated(entry);
    const file: ZipInputFile = {
      filename: entry.name,
      size: entry.claims ?? d.size,
      crc: d.crc,
      compression: 8,
      terminate: () => {},
    };
    zip.add(file);
    file.ondata?.(null, new Uint8Array(d.deflated), true);
  }
  zip.end();
  return Buffer.concat(out);
}
