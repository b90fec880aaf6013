/**
 * The snapshot file (docs/architecture.md#the-snapshot-file): a built snapshot and what was
 * derived from it, written to disk so that a restart over unchanged data reads its columns back
 * in seconds instead of building them again from the store. The file is a cache: it is used only
 * when its key (the store's identity and data version, the code that built it) matches exactly,
 * and any doubt (another key, a short or damaged file) means building from the store.
 *
 * Layout: 8 magic bytes, a little-endian u32 header length, the header (JSON: key, sizes,
 * CRC-32), the skeleton (v8.serialize of the value with each typed array replaced by a marker),
 * then each distinct buffer the typed arrays view, every part starting on an 8-byte boundary.
 */
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { threadId } from 'node:worker_threads';
import { crc32 } from 'node:zlib';

const MAGIC = Buffer.from('MUSTSNP1', 'latin1');
/** The marker a typed array leaves in the skeleton: [buffer index, type, byte offset, length]. */
const VIEW = '\u0000muster.view';
/** Reads and writes go in slices: one call moves at most 2 GiB, and smaller ones keep RSS flat. */
const SLICE = 64 * 1024 * 1024;

const VIEW_TYPES = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;
type ViewType = keyof typeof VIEW_TYPES;
type Marker = [buffer: number, type: ViewType, byteOffset: number, length: number];

interface Header {
  key: string;
  skeletonBytes: number;
  buffers: { bytes: number; shared: boolean }[];
  /** CRC-32 of the skeleton and the buffers, 8 hex digits (the header keeps its length). */
  crc: string;
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;
const isViewMarker = (v: object): v is Record<typeof VIEW, Marker> =>
  !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, VIEW);

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A buffer's place in the file and the end of the last byte a view of it reads: a growable
 * buffer (typed-column.ts) holds room it was never written past, which the file leaves out.
 */
interface UsedBuffer {
  index: number;
  end: number;
}

/**
 * A copy of `value` with every typed array replaced by a marker, its buffer listed once in
 * `buffers`; shared references stay shared (and cycles end) through `copies`.
 */
function strip(
  value: unknown,
  buffers: Map<ArrayBufferLike, UsedBuffer>,
  copies: Map<object, unknown>,
): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const type = value.constructor.name as ViewType;
    if (!(type in VIEW_TYPES)) throw new TypeError(`cannot write a ${type} to a snapshot file`);
    const end = value.byteOffset + value.byteLength;
    let used = buffers.get(value.buffer);
    if (used === undefined) buffers.set(value.buffer, (used = { index: buffers.size, end }));
    else used.end = Math.max(used.end, end);
    const index = used.index;
    const length = value.byteLength / (value as Int8Array).BYTES_PER_ELEMENT;
    const marker = { [VIEW]: [index, type, value.byteOffset, length] satisfies Marker };
    copies.set(value, marker);
    return marker;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(strip(item, buffers, copies));
    return copy;
  }
  if (value instanceof Map) {
    const copy = new Map<unknown, unknown>();
    copies.set(value, copy);
    for (const [k, v] of value) copy.set(strip(k, buffers, copies), strip(v, buffers, copies));
    return copy;
  }
  if (value instanceof Set) {
    const copy = new Set<unknown>();
    copies.set(value, copy);
    for (const item of value) copy.add(strip(item, buffers, copies));
    return copy;
  }
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    copies.set(value, copy);
    for (const key of Object.keys(value)) copy[key] = strip(value[key], buffers, copies);
    return copy;
  }
  // Dates, regular expressions and the like are cloned by v8.serialize as they are.
  return value;
}

/** Puts typed arrays over `buffers` back where `strip` left markers, in place. */
function revive(value: unknown, buffers: ArrayBufferLike[], seen: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (isViewMarker(value)) {
    const [index, type, byteOffset, length] = value[VIEW];
    const View = VIEW_TYPES[type];
    const buffer = buffers[index];
    if (View === undefined || buffer === undefined) throw new Error('a view names no buffer');
    // TypeScript types these constructors over ArrayBuffer only; they take shared memory too.
    return new View(buffer as ArrayBuffer, byteOffset, length);
  }
  if (seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i], buffers, seen);
  } else if (value instanceof Map) {
    for (const [k, v] of value) value.set(k, revive(v, buffers, seen));
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) value[key] = revive(value[key], buffers, seen);
  }
  return value;
}

function writeAll(fd: number, bytes: Uint8Array, position: number): number {
  for (let at = 0; at < bytes.byteLength; ) {
    at += writeSync(fd, bytes, at, Math.min(SLICE, bytes.byteLength - at), position + at);
  }
  return position + bytes.byteLength;
}

function readAll(fd: number, into: Uint8Array, position: number): number {
  for (let at = 0; at < into.byteLength; ) {
    const read = readSync(fd, into, at, Math.min(SLICE, into.byteLength - at), position + at);
    if (read === 0) throw new Error('the file ends early');
    at += read;
  }
  return position + into.byteLength;
}

/**
 * Writes `value` (plain objects, arrays, Maps, Sets, typed arrays on shared or own memory) to
 * `path` under `key`: into a temporary file first, renamed over `path` once complete, so a
 * reader never sees half a file. Returns the bytes written.
 */
export function writeSnapshotFile(path: string, key: string, value: unknown): number {
  const buffers = new Map<ArrayBufferLike, UsedBuffer>();
  const skeleton = serialize(strip(value, buffers, new Map()));
  const list = [...buffers].map(([b, used]) => new Uint8Array(b, 0, used.end));
  const header: Header = {
    key,
    skeletonBytes: skeleton.byteLength,
    buffers: list.map((b) => ({
      bytes: b.byteLength,
      shared: b.buffer instanceof SharedArrayBuffer,
    })),
    crc: '00000000',
  };
  const headerBytes = () => Buffer.from(JSON.stringify(header), 'utf8');
  const start = MAGIC.byteLength + 4 + headerBytes().byteLength;
  const temporary = `${path}.${process.pid}-${threadId}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    let position = start + pad8(start);
    let crc = 0;
    for (const part of [skeleton, ...list]) {
      crc = crc32(part, crc);
      position = writeAll(fd, part, position);
      position += pad8(position);
    }
    header.crc = (crc >>> 0).toString(16).padStart(8, '0');
    const head = headerBytes();
    const length = Buffer.alloc(4);
    length.writeUInt32LE(head.byteLength);
    writeAll(fd, Buffer.concat([MAGIC, length, head]), 0);
    closeSync(fd);
    renameSync(temporary, path);
    return position;
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * What reading a snapshot file gave: the value, or why the file was not used (`absent` when
 * there is no file, as before the first build: nothing to warn of).
 */
export type SnapshotFileRead = { value: unknown } | { unused: string; absent?: true };

/**
 * Reads the value written to `path` under `key`. A missing file, another key or a damaged file
 * is not an error: the answer says why it was not used, and the caller builds from the store.
 */
export function readSnapshotFile(path: string, key: string): SnapshotFileRead {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return code === 'ENOENT'
      ? { unused: 'there is none', absent: true }
      : { unused: `cannot open it (${code})` };
  }
  try {
    const intro = Buffer.alloc(MAGIC.byteLength + 4);
    let position = readAll(fd, intro, 0);
    if (!intro.subarray(0, MAGIC.byteLength).equals(MAGIC))
      return { unused: 'not a snapshot file' };
    const head = Buffer.alloc(intro.readUInt32LE(MAGIC.byteLength));
    position = readAll(fd, head, position);
    const header = JSON.parse(head.toString('utf8')) as Header;
    if (header.key !== key) return { unused: 'it was made from other data or by other code' };
    position += pad8(position);
    const skeleton = Buffer.alloc(header.skeletonBytes);
    position = readAll(fd, skeleton, position);
    let crc = crc32(skeleton);
    const buffers: ArrayBufferLike[] = [];
    for (const { bytes, shared } of header.buffers) {
      position += pad8(position);
      const buffer = shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
      position = readAll(fd, new Uint8Array(buffer), position);
      crc = crc32(new Uint8Array(buffer), crc);
      buffers.push(buffer);
    }
    if ((crc >>> 0).toString(16).padStart(8, '0') !== header.crc) {
      return { unused: 'its checksum does not match (the file is damaged)' };
    }
    return { value: revive(deserialize(skeleton), buffers, new Set()) };
  } catch (error) {
    return { unused: `it cannot be read (${(error as Error).message})` };
  } finally {
    closeSync(fd);
  }
}
