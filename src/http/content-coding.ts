/**
 * The content codings the service answers in (docs/http-api.md#compression) and how bytes are
 * put into them, with no HTTP framework attached: the engine threads import this to compress an
 * answer where it is made (docs/architecture.md#engine-thread), and the compression plugin
 * (plugins/compression.ts) uses the same settings for everything else.
 */
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';

/** The content codings offered, best first (zstd, which Node 24's zlib has, is not offered yet). */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Answers smaller than this go out as they are: compressing them saves too little. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality 4: within a few per cent of gzip -9's size at a small fraction of quality 11's
 * cost, which a request cannot wait for (docs/http-api.md#compression).
 */
export const BROTLI_OPTIONS = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } };

/** `bytes` in the given coding, on this thread (an engine thread's; RFC 9110 §8.4.1). */
export function encodeBody(bytes: Uint8Array, encoding: Encoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(bytes, BROTLI_OPTIONS) : gzipSync(bytes);
}

/**
 * `bytes` in the given coding, compressed on libuv's thread pool: what the serving thread uses
 * when it must compress at all, so that it never waits on zlib (RFC 9110 §8.4.1).
 */
export function encodeBodyOffThread(bytes: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'br') brotliCompress(bytes, BROTLI_OPTIONS, done);
    else gzip(bytes, done);
  });
}
