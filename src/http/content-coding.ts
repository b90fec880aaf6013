/**
 * The content codings the service answers in (docs/http-api.md#compression) and how bytes are
 * put into them, with no HTTP framework attached: the engine threads import this to compress an
 * answer where it is made (docs/architecture.md#engine-thread), and the compression plugin
 * (plugins/compression.ts) uses the same settings for everything else.
 */
import {
  brotliCompress,
  brotliCompressSync,
  constants as zlib,
  gzip,
  gzipSync,
  zstdCompress,
  zstdCompressSync,
} from 'node:zlib';

/**
 * The content codings offered, best first (RFC 9110 §12.5.3 leaves the choice among equal
 * weights to the server): Zstandard (RFC 8878, `zstd`, which current browsers accept) costs a
 * fifth of Brotli's CPU for an answer of tens of kilobytes at a few per cent more bytes, and an
 * uncached answer is compressed anew for every request; Brotli and gzip serve clients without it.
 */
export const ENCODINGS = ['zstd', 'br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Answers smaller than this go out as they are: compressing them saves too little. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality 4: within a few per cent of gzip -9's size at a small fraction of quality 11's
 * cost, which a request cannot wait for (docs/http-api.md#compression).
 */
export const BROTLI_OPTIONS = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * Zstandard level 1, its fastest standard level: on the statistics answers (tens to a hundred
 * and fifty kilobytes of JSON) it packs as small as levels 2 and 3 for less CPU; the higher
 * levels that pack smaller cost as much as Brotli (docs/architecture.md#engine-thread).
 */
export const ZSTD_OPTIONS = { params: { [zlib.ZSTD_c_compressionLevel]: 1 } };

/** `bytes` in the given coding, on this thread (an engine thread's; RFC 9110 §8.4.1). */
export function encodeBody(bytes: Uint8Array, encoding: Encoding): Buffer {
  if (encoding === 'zstd') return zstdCompressSync(bytes, ZSTD_OPTIONS);
  return encoding === 'br' ? brotliCompressSync(bytes, BROTLI_OPTIONS) : gzipSync(bytes);
}

/**
 * `bytes` in the given coding, compressed on libuv's thread pool: what the serving thread uses
 * when it must compress at all, so that it never waits on zlib (RFC 9110 §8.4.1).
 */
export function encodeBodyOffThread(bytes: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'zstd') zstdCompress(bytes, ZSTD_OPTIONS, done);
    else if (encoding === 'br') brotliCompress(bytes, BROTLI_OPTIONS, done);
    else gzip(bytes, done);
  });
}
