/**
 * Response compression (docs/http-api.md#compression) with @fastify/compress: zstd, Brotli or gzip,
 * as the request's Accept-Encoding prefers (RFC 9110 §12.5.3), for every compressible answer of
 * 1 KiB or more. Statistics answers come compressed from the engine thread that made them, with
 * the settings of content-coding.ts (docs/architecture.md#engine-thread): the plugin sees their
 * Content-Encoding and leaves them alone. It compresses everything else itself, Brotli at the
 * same quality and zstd at its default level. Request bodies are never decompressed: a 16 KiB
 * JSON filter gains nothing from it,
 * and a compressed body could expand far beyond the body limit.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import { Negotiator } from '@fastify/accept-negotiator';
import { BROTLI_OPTIONS, COMPRESS_THRESHOLD_BYTES, ENCODINGS } from '../content-coding.ts';
import type { Encoding } from '../content-coding.ts';

// One negotiator for the process, caching its verdict per distinct header value (clients send
// a handful of spellings), so a request costs a map lookup rather than a parse.
const verdicts = new Map<string, string>();
const negotiator = new Negotiator<Encoding>({ supportedValues: [...ENCODINGS], cache: verdicts });
const MAX_HEADER_VERDICTS = 256;

/** The coding to answer with for this Accept-Encoding, or null for the identity (RFC 9110 §12.5.3). */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null;
  const header = acceptEncoding.toLowerCase();
  // The verdict cache is keyed by a header clients choose: bounded, so it cannot grow for ever.
  if (verdicts.size >= MAX_HEADER_VERDICTS && !verdicts.has(header)) verdicts.clear();
  return negotiator.negotiate(header);
}

/** Adds `field` to the reply's Vary header unless it is already listed (RFC 9110 §12.5.5). */
export function appendVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  const text = Array.isArray(current) ? current.join(', ') : String(current ?? '');
  if (text.split(',').some((f) => f.trim().toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', text === '' ? field : `${text}, ${field}`);
}

/** Registers @fastify/compress; must be awaited before any route is registered (it works by onRoute). */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: [...ENCODINGS],
    threshold: COMPRESS_THRESHOLD_BYTES,
    brotliOptions: BROTLI_OPTIONS,
  });
}
