/**
 * A statistics answer's bytes, made where it is computed (docs/architecture.md#engine-thread):
 * the engine's result wrapped in the {data, meta} envelope, serialised by the route's response
 * schema (fast-json-stringify, as Fastify would), encoded as UTF-8 and, when it is large enough
 * to gain, compressed in each content coding asked for. Each part has an ArrayBuffer of its own,
 * so an engine thread hands them to the serving thread by transfer, not by copy.
 */
import type { EngineResult } from '../engine/engine-result.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { COMPRESS_THRESHOLD_BYTES, encodeBody } from './content-coding.ts';
import type { Encoding } from './content-coding.ts';
import { compileSerialiser } from './plugins/serializer.ts';
import type { SerialiserSpec } from './plugins/serializer.ts';
import { envelope } from './schemas/answer-envelope.ts';

/** How a route's answers are written: its path (their key) and its 200 serialiser's spec. */
export interface AnswerFormat {
  readonly route: string;
  readonly serialiser: SerialiserSpec;
  /**
   * The answer's data is the body's text (a CSV download), written as it is: no envelope, no
   * serialiser (docs/http-api.md#downloads).
   */
  readonly text?: boolean;
}

/** An answer to make: in which format, and in which content codings beside the plain bytes. */
export interface AnswerOrder {
  readonly format: AnswerFormat;
  readonly encodings: readonly Encoding[];
  /**
   * False: the plain bytes are not wanted where a coding is made (an answer that is sent once
   * and not kept), so they are written into this thread's scratch, compressed from there and
   * never handed over (docs/architecture.md#where-an-answers-cpu-goes).
   */
  readonly plain?: false;
}

/**
 * An answer's plain UTF-8 bytes and those of each coding made (none under the threshold); the
 * plain bytes are null where the order did not want them and a coding was made.
 */
export interface AnswerBytes {
  readonly plain: Uint8Array | null;
  readonly encoded: ReadonlyArray<{ readonly encoding: Encoding; readonly bytes: Uint8Array }>;
}

/** `bytes` on an ArrayBuffer of exactly their size, which can be transferred alone. */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = new Uint8Array(bytes.byteLength);
  own.set(bytes);
  return own;
}

/** The UTF-8 bytes of `text` on an ArrayBuffer of their own (Buffer.from may use a shared pool). */
function utf8(text: string): Uint8Array {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** This thread's scratch for the plain bytes of answers not kept: grown, never shrunk. */
let scratch = Buffer.alloc(0);

/**
 * The bytes of the answer `result` from `snapshot`, serialised by `serialise`, plain and in
 * each of `encodings` when COMPRESS_THRESHOLD_BYTES or larger (docs/architecture.md#engine-thread);
 * with `plainWanted` false and a coding made, no plain bytes (AnswerOrder.plain).
 */
export function answerBytes(
  snapshot: Snapshot,
  result: EngineResult<unknown, unknown>,
  serialise: (data: unknown) => string,
  encodings: readonly Encoding[],
  plainWanted = true,
): AnswerBytes {
  const text = serialise(envelope(snapshot, result));
  if (!plainWanted && encodings.length > 0) {
    // Each answer's plain bytes on a buffer of their own, handed over and dropped there, were
    // memory the receiving thread's collector counted and freed, each request.
    const size = Buffer.byteLength(text);
    if (size >= COMPRESS_THRESHOLD_BYTES) {
      if (scratch.byteLength < size) scratch = Buffer.allocUnsafeSlow(size * 2);
      const written = scratch.subarray(0, scratch.write(text));
      const encoded = encodings.map((encoding) => ({
        encoding,
        bytes: ownBuffer(encodeBody(written, encoding)),
      }));
      return { plain: null, encoded };
    }
  }
  const plain = utf8(text);
  if (plain.byteLength < COMPRESS_THRESHOLD_BYTES) return { plain, encoded: [] };
  const encoded = encodings.map((encoding) => ({
    encoding,
    bytes: ownBuffer(encodeBody(plain, encoding)),
  }));
  return { plain, encoded };
}

/** The buffers to transfer with `answer` (docs/architecture.md#engine-thread). */
export function transferListOf(answer: AnswerBytes): ArrayBuffer[] {
  const all = [...answer.encoded.map((e) => e.bytes)];
  if (answer.plain !== null) all.push(answer.plain);
  return all.map((b) => b.buffer as ArrayBuffer);
}

/** Serialisers compiled on this thread, by route: each once, on its first answer. */
export class AnswerSerialisers {
  private readonly compiled = new Map<string, (data: unknown) => string>();

  /** The serialiser of `format`, compiled now if this thread has not yet. */
  of(format: AnswerFormat): (data: unknown) => string {
    let serialise = this.compiled.get(format.route);
    if (serialise === undefined) {
      serialise = format.text === true ? textOf : compileSerialiser(format.serialiser);
      this.compiled.set(format.route, serialise);
    }
    return serialise;
  }
}

/** A text answer's body: its envelope's data, which the engine made as text. */
function textOf(answer: unknown): string {
  return (answer as { data: string }).data;
}
