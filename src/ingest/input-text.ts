/**
 * How every import reads its bytes (docs/import-formats.md#rules-for-every-format): text must be
 * UTF-8 (a byte that is not is reported with its line, never stored as U+FFFD), and no line or
 * document may be larger than the record limit, so a huge or endless input fails fast in bounded
 * memory instead of being buffered whole.
 */
import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { specialKind } from './folder-walk.ts';

/** The default record limit: the largest line or document an import holds in memory. */
export const DEFAULT_MAX_RECORD_BYTES = 128 * 1024 * 1024;

/** What `--max-record-mb` says, for messages. */
function mib(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return `${Number.isInteger(value) ? value : value.toFixed(2)} MiB`;
}

/**
 * A line or document over the record limit: the import stops there, as a failure
 * (docs/import-formats.md#size-limits), since what follows cannot be read in bounded memory.
 */
export class InputTooLargeError extends Error {
  constructor(
    source: string,
    what: string,
    limit: number,
    limitName = 'the record limit',
    hint = 'raise it with --max-record-mb',
  ) {
    super(`${source}: ${what} is larger than ${limitName} of ${mib(limit)} (${hint})`);
    this.name = 'InputTooLargeError';
  }
}

/** Bytes that are not UTF-8 text; `line` is the first bad line. */
export class NotUtf8Error extends Error {
  readonly line: number;
  constructor(line: number) {
    // The line is the reject's record (`line N`), so the reason does not repeat it.
    super('bytes that are not UTF-8 text (save the file as UTF-8)');
    this.line = line;
    this.name = 'NotUtf8Error';
  }
}

/** The 1-based line of the first byte sequence that is not UTF-8, or null when all are. */
export function firstNonUtf8Line(bytes: Uint8Array): number | null {
  if (isUtf8(bytes)) return null;
  let line = 1;
  let start = 0;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (start <= buf.length) {
    let end = buf.indexOf(0x0a, start);
    if (end === -1) end = buf.length;
    if (!isUtf8(buf.subarray(start, end))) return line;
    line++;
    start = end + 1;
  }
  return line;
}

/** Decodes UTF-8 text strictly (a leading BOM dropped); throws NotUtf8Error naming the line. */
export function decodeUtf8(bytes: Uint8Array): string {
  const line = firstNonUtf8Line(bytes);
  if (line !== null) throw new NotUtf8Error(line);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Reads a whole stream, failing as soon as it passes `limit` bytes (the stream is destroyed, so
 * the rest is never read).
 */
export async function readBounded(input: Readable, source: string, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > limit) throw new InputTooLargeError(source, 'the document', limit);
      chunks.push(bytes);
    }
  } finally {
    input.destroy();
  }
  return Buffer.concat(chunks, size);
}

/**
 * Reads a file whole when it is within `limit` bytes (checked before reading, and while). With
 * `regularOnly` (a file found in a folder rather than named) anything but a regular file is
 * refused: it is opened without blocking, since opening a FIFO no one writes to never returns
 * (docs/import-formats.md#folders).
 */
export async function readFileBounded(
  path: string,
  limit: number,
  options: { regularOnly?: boolean } = {},
): Promise<Buffer> {
  const flags = options.regularOnly
    ? constants.O_RDONLY | constants.O_NONBLOCK
    : constants.O_RDONLY;
  const handle = await open(path, flags);
  try {
    const info = await handle.stat();
    if (options.regularOnly && !info.isFile())
      throw new Error(
        info.isDirectory() ? 'a folder, not a file' : `${specialKind(info)}, not a file`,
      );
    if (info.size > limit)
      throw new InputTooLargeError(path, `the file (${info.size} bytes)`, limit);
    // A regular file is read in one go (T9A folders hold tens of thousands of small reports);
    // a pipe or device has no size to check, so it is read as a stream that stops at the limit.
    if (info.isFile()) return await handle.readFile();
    return await readBounded(handle.createReadStream({ autoClose: false }), path, limit);
  } finally {
    await handle.close();
  }
}

/** One line of a line-oriented input: its 1-based number and its text, or why it has none. */
export type InputLine = { line: number; text: string } | { line: number; error: NotUtf8Error };

/**
 * Splits a byte stream into lines (LF or CRLF), each decoded on its own, so a line that is not
 * UTF-8 is reported alone and the lines after it are still read. A line longer than `limit`
 * bytes throws InputTooLargeError at once, without buffering the rest of it.
 */
export async function* readLines(
  input: Readable,
  source: string,
  limit: number,
): AsyncGenerator<InputLine> {
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let line = 0;
  const finish = (last: Buffer): InputLine => {
    let bytes = pending.length === 0 ? last : Buffer.concat([...pending, last]);
    pending = [];
    pendingSize = 0;
    line++;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    if (line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
      bytes = bytes.subarray(3);
    if (!isUtf8(bytes)) return { line, error: new NotUtf8Error(line) };
    return { line, text: bytes.toString('utf8') };
  };
  try {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      let start = 0;
      for (;;) {
        const end = bytes.indexOf(0x0a, start);
        if (end === -1) break;
        if (pendingSize + end - start > limit)
          throw new InputTooLargeError(source, `line ${line + 1}`, limit);
        yield finish(bytes.subarray(start, end));
        start = end + 1;
      }
      if (start < bytes.length) {
        pending.push(bytes.subarray(start));
        pendingSize += bytes.length - start;
        if (pendingSize > limit) throw new InputTooLargeError(source, `line ${line + 1}`, limit);
      }
    }
    if (pendingSize > 0) yield finish(Buffer.alloc(0));
  } finally {
    input.destroy();
  }
}
